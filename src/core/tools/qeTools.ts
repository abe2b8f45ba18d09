/** make_pw_input, generate_series: pw.x inputs from structures (dft/qe). */
import type { CatalogueContext } from './services';
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { artifactRefSchema, quantitySchema } from '../guard/schemaAnnotations';
import path from 'node:path';
import type { QeVersion } from '../dft/qe/definitions';
import type { UpfHeader } from '../dft/qe/upf';
import { readUpfHeaderFile } from '../dft/qe/upfFiles';
import { validatePwInput } from '../dft/qe/validate';
import { cellVolume } from '../dft/structure/cell';
import type { Structure } from '../dft/types';
import type { ArtifactDraft } from '../provenance/types';
import { ARTIFACT, type PseudopotentialTableValue, type PwInputValue } from '../artifacts/shapes';
import { renderPwInput, type PseudoChoice, type PwInputOptions } from '../dft/qe/pwInput';
import { CELL_DOFREE } from '../dft/relaxation';
import { PW_SETTINGS_NOTES, PW_SETTINGS_PROPERTIES } from './pwSettings';

/** Headers of the files the input names, for the validator's pseudopotential rules. */
function headersFor(
  pseudos: Record<string, PseudoChoice>,
  dir: string | undefined,
): Record<string, UpfHeader | { error: string }> | undefined {
  if (!dir) return undefined;
  return Object.fromEntries(
    Object.values(pseudos).map((p) => {
      try {
        return [p.file, readUpfHeaderFile(path.join(dir, p.file))];
      } catch (e) {
        return [p.file, { error: (e as Error).message }];
      }
    }),
  );
}

interface DraftContext {
  pseudoDirectory?: string;
  qeVersion?: QeVersion;
}

/** Render and validate (dft/qe/validate); errors refuse the input, warnings travel with it. */
function inputDraft(
  structure: Structure,
  options: PwInputOptions,
  pseudos: Record<string, PseudoChoice>,
  dc: DraftContext,
  meta: Record<string, unknown> = {},
): ArtifactDraft {
  const { text, settings } = renderPwInput(structure, options, pseudos);
  const headers = headersFor(pseudos, dc.pseudoDirectory);
  const check = validatePwInput(text, {
    ...(dc.qeVersion ? { qeVersion: dc.qeVersion } : {}),
    ...(headers ? { upfHeaders: headers } : {}),
  });
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    throw new Error(`the pw.x input would not run (QE ${check.qeVersion}): ${errors.map((d) => `[${d.code}] ${d.message}`).join(' ')}`);
  }
  const warnings = check.diagnostics.filter((d) => d.severity === 'warning').map((d) => `[${d.code}] ${d.message}`);
  const value: PwInputValue = {
    text,
    settings,
    structure,
    calculation: options.calculation,
    options,
    pseudos,
    ...(dc.pseudoDirectory ? { pseudoDirectory: dc.pseudoDirectory } : {}),
  };
  return {
    kind: 'qe-input',
    name: ARTIFACT.pwInput,
    value,
    file: { name: 'pw.in', bytes: text },
    meta: {
      settings,
      purpose: options.purpose,
      natoms: structure.symbols.length,
      volumeAngstrom3: cellVolume(structure.cell),
      qeVersion: check.qeVersion,
      ...(warnings.length ? { validationWarnings: warnings } : {}),
      ...meta,
    },
  };
}

const qeVersionOf = (ctx: CatalogueContext): QeVersion | undefined => ctx.services.qeVersion;

export const makePwInputTool = defineTool({
  name: 'make_pw_input',
  description:
    'Write a validated pw.x input for a structure: pseudopotentials, cutoffs (Ry), k-points from a spacing (1/Å, with 2π) or an ' +
    'explicit mesh, occupations and smearing, spin. The input records the physical settings its energies will carry.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure to compute.', { kinds: ['structure'] }),
      ...PW_SETTINGS_PROPERTIES,
      purpose: {
        type: 'string',
        enum: ['production', 'convergence-test'],
        description: "'convergence-test' for the template of a cutoff or k sweep; 'production' for inputs whose energies feed results.",
      },
      calculation: {
        type: 'string',
        enum: ['scf', 'relax', 'vc-relax', 'ensemble'],
        description: "'ensemble' (with inputDft 'BEEF-vdW'): an SCF followed by the BEEF-vdW error ensemble of 2,000 energies.",
      },
      inputDft: {
        type: 'string',
        enum: ['BEEF-vdW'],
        description: "Functional overriding the pseudopotentials' (input_dft); BEEF-vdW runs on PBE pseudopotentials.",
      },
      startingMagnetization: {
        type: 'object',
        additionalProperties: { type: 'number', minimum: -1, maximum: 1 },
        description:
          'nspin 2: starting magnetization (−1 to 1) by element, or by species label of a magnetic_configuration structure ({ Fe1: 0.5, Fe2: -0.5 } for an antiferromagnet).',
      },
      forceThresholdEvPerAngstrom: quantitySchema(
        'Relaxations stop when every force component is below this (forc_conv_thr; QE default 0.0257)',
        'eV/Å',
        { exclusiveMinimum: 0, maximum: 0.5 },
      ),
      pressureThresholdKbar: quantitySchema(
        'vc-relax: the cell has converged when every free stress component is this close to the target pressure (press_conv_thr; QE default 0.5)',
        'kbar',
        { exclusiveMinimum: 0, maximum: 50 },
      ),
      targetPressureKbar: quantitySchema('vc-relax: the target pressure (press; QE default 0)', 'kbar', { minimum: -1000, maximum: 10000 }),
      cellDofree: {
        type: 'string',
        enum: [...CELL_DOFREE],
        description:
          "vc-relax: which cell components may change (cell_dofree; 'all' by default, 'ibrav' keeps the Bravais lattice, 'shape' the volume, '2Dxy' relaxes a slab in plane only).",
      },
      maxIonicSteps: { type: 'integer', minimum: 1, maximum: 1000, description: 'Relaxations: most ionic steps (nstep; QE default 50).' },
    },
    required: ['structure', 'pseudopotentials', 'purpose', 'calculation', 'ecutwfcRy', 'ecutrhoRy', 'occupations', 'nspin'],
    anyOf: [{ required: ['kSpacingPerAngstrom'] }, { required: ['kMesh'] }],
    additionalProperties: false,
  },
  rules: [
    'cutoff-above-pseudopotential-suggestion',
    'kmesh-matches-spacing',
    'metals-have-smearing',
    'convergence-choice-in-range',
    'tests-redone-after-cutoff-change',
    'atoms-apart',
  ],
  outputs: [ARTIFACTS.pwInput],
  parameterNotes: {
    ...PW_SETTINGS_NOTES,
    purpose:
      "'convergence-test' for inputs whose energies only test settings (a sweep's template, a bulk-modulus probe at a sweep's lowest cutoff); everything whose energies feed a result is production.",
    forceThresholdEvPerAngstrom: '0.01–0.03 eV/Å for adsorption geometries; looser only for screening.',
    pressureThresholdKbar:
      '0.5 kbar (QE default) or tighter for lattice parameters; a Pulay stress of a few kbar at a low cutoff needs a higher one rather than a looser threshold.',
    cellDofree: "'all' for a bulk crystal; 'ibrav' to keep its lattice type; '2Dxy' for a slab (the vacuum must not relax).",
  },
  async run({ structure: sRef, pseudopotentials: pRef, ...options }, ctx) {
    const structure = ctx.resolve(sRef) as Structure;
    const table = ctx.resolve(pRef) as PseudopotentialTableValue;
    const draft = inputDraft(structure, options, table.byElement, { pseudoDirectory: table.directory, qeVersion: qeVersionOf(ctx) });
    const warnings = (draft.meta?.validationWarnings as string[] | undefined) ?? [];
    const settings = (draft.value as PwInputValue).settings;
    return {
      artifacts: [draft],
      summary:
        `pw.x ${options.calculation} input for ${structure.symbols.length} atom(s): ecutwfc ${options.ecutwfcRy} Ry, ecutrho ${options.ecutrhoRy} Ry, ` +
        `k-mesh ${settings.kMesh!.join('×')}${options.kSpacingPerAngstrom !== undefined ? ` (spacing ${options.kSpacingPerAngstrom} 1/Å)` : ''}, ${options.occupations}${options.smearing ? ` ${options.smearing} ${options.degaussRy} Ry` : ''}` +
        (warnings.length ? `. Validator warnings: ${warnings.join(' ')}` : ''),
    };
  },
});

export const generateSeriesTool = defineTool({
  name: 'generate_series',
  description:
    'From a template pw.x input, make a series varying one thing: ecutwfc (Ry, ecutrho scaled with it), k-spacing (1/Å), ' +
    "or the lattice (scale factors of the lattice constant, for an EOS, with the template's k-mesh at every volume). All other settings stay those of the template.",
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      template: artifactRefSchema('The template input (make_pw_input output).', { kinds: ['qe-input'], names: [ARTIFACT.pwInput] }),
      kind: { type: 'string', enum: ['ecutwfc', 'kspacing', 'eos'] },
      values: {
        type: 'array',
        items: { type: 'number', exclusiveMinimum: 0 },
        minItems: 1,
        maxItems: 15,
        uniqueItems: true,
        description: 'The values of the series; one is enough to extend a sweep by its next value.',
      },
    },
    required: ['template', 'kind', 'values'],
    additionalProperties: false,
  },
  rules: ['atoms-apart', 'extension-within-budget'],
  outputs: [ARTIFACTS.pwInput],
  parameterNotes: {
    values:
      'cutoffs in steps of 5–10 Ry from the UPF suggestion (when the file states one) upward; spacings from 0.4 down to 0.1 1/Å; ' +
      'EOS lattice scale factors spanning ±3 to ±5 % of a (volumes ±9 to ±15 %; the lattice-constant workflow plans ±5 % in five points), wide enough to bracket the minimum from a starting guess; ' +
      'a bulk-modulus probe (kind eos on a convergence-test template) uses ±1 % of a, close enough for the pressure to be linear in the volume.',
  },
  async run({ template, kind, values }, ctx) {
    const t = ctx.resolve(template) as PwInputValue;
    if (!t.options || !t.pseudos)
      throw new Error(
        `generate_series: ${template} was not made by make_pw_input in this catalogue, so it cannot be varied; make the template with make_pw_input.`,
      );
    const dual = t.options.ecutrhoRy / t.options.ecutwfcRy;
    const dc: DraftContext = { ...(t.pseudoDirectory ? { pseudoDirectory: t.pseudoDirectory } : {}), qeVersion: qeVersionOf(ctx) };
    const drafts = values.map((v) => {
      // A cutoff or k sweep is a convergence test whatever its template was.
      if (kind === 'ecutwfc')
        return inputDraft(
          t.structure,
          { ...t.options!, purpose: 'convergence-test', ecutwfcRy: v, ecutrhoRy: Number((dual * v).toFixed(6)) },
          t.pseudos!,
          dc,
          { series: kind, seriesValue: v },
        );
      if (kind === 'kspacing') {
        const { kMesh: _mesh, ...rest } = t.options!;
        return inputDraft(t.structure, { ...rest, purpose: 'convergence-test', kSpacingPerAngstrom: v }, t.pseudos!, dc, {
          series: kind,
          seriesValue: v,
        });
      }
      const scaled: Structure = {
        ...t.structure,
        cell: t.structure.cell.map((r) => r.map((x) => x * v)) as Structure['cell'],
        positions: t.structure.positions.map((r) => r.map((x) => x * v)) as Structure['positions'],
      };
      // One k-mesh for every volume, the template's: a mesh that changed with the cell would put jumps of
      // the k error into E(V) (fcc Al at 0.25 1/Å: 12³ to 11³ inside ±5 %, a0 0.3 % off). The spacing is
      // recorded as the template's, whose cell the mesh was made for.
      return inputDraft(scaled, { ...t.options!, kMesh: t.settings.kMesh ?? t.options!.kMesh }, t.pseudos!, dc, {
        series: kind,
        seriesValue: v,
      });
    });
    return { artifacts: drafts, summary: `${values.length} ${kind} input(s) from ${template}: ${values.join(', ')}` };
  },
});
