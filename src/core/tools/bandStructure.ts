/**
 * band_path, make_nscf_input, run_nscf: the steps between an SCF and its post-processing. The
 * path is the standard one of the crystal's Bravais lattice (Setyawan–Curtarolo); the NSCF
 * input is the SCF's own input with calculation 'bands' or 'nscf'; run_nscf runs it on a copy
 * of the SCF job's saved charge density (hpc/continuation.ts). Energies in eV, k in 1/Å.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { samplePath, standardBandPath } from '../dft/electronic/kpath';
import { meshFromSpacing } from '../dft/kpoints';
import { defaultNbnd, renderNscfInput } from '../dft/qe/nscfInput';
import { parsePwOutput } from '../dft/qe/output';
import { printedEigenvalues } from '../dft/qe/output/eigenvalues';
import { valenceEdges } from '../dft/electronic/energyZero';
import type { Structure } from '../dft/types';
import { outputNameFor } from '../hpc/localRunner';
import { artifactRefSchema, quantitySchema } from '../guard/schemaAnnotations';
import { ARTIFACT, type PwInputValue } from '../artifacts/shapes';
import type { BandPathValue, NscfMeta } from '../artifacts/electronic';
import type { ProvenanceView } from '../provenance/view';
import { jobIdForCall } from './runPw';
import { scfSource } from './scfSource';
import { backendsOf, service, type CatalogueContext } from './services';
import { kMeshSchema } from './pwSettings';

const view = (ctx: CatalogueContext): ProvenanceView => ctx.services.provenance;

export const bandPathTool = defineTool({
  name: 'band_path',
  description:
    'The standard band-structure path of a crystal (Setyawan–Curtarolo convention, from the Bravais lattice of its standardised cell, ' +
    "as ASE and most band-structure figures use): labelled points in the cell's reciprocal coordinates and the k-points pw.x will follow. " +
    'The cell must be primitive (bands of a supercell are folded).',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The primitive cell the SCF computes.', { kinds: ['structure'] }),
      pointsPerInverseAngstrom: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 500,
        description: 'k-points per 1/Å of path (default 30; 15 for a quick look, 50 for a smooth figure).',
      },
    },
    required: ['structure'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.bandPath],
  parameterNotes: { pointsPerInverseAngstrom: '20–50 per 1/Å; fewer only for tests.' },
  async run(args, ctx) {
    const structure = ctx.resolve(args.structure) as Structure;
    const density = args.pointsPerInverseAngstrom ?? 30;
    const bp = standardBandPath(structure);
    const sampled = samplePath(bp, structure.cell, density);
    const value: BandPathValue = {
      convention: bp.convention,
      lattice: bp.lattice,
      spaceGroup: bp.spaceGroup,
      points: bp.points,
      segments: bp.segments,
      nodes: sampled.nodes,
      kpointCount: sampled.kpoints.length,
      pointsPerInverseAngstrom: density,
      cellAngstrom: structure.cell,
    };
    const text = bp.segments.map((run) => run.join('–')).join(' | ');
    return {
      artifacts: [{ kind: 'table', name: ARTIFACT.bandPath, value, meta: { lattice: bp.lattice, spaceGroup: bp.spaceGroup.symbol } }],
      summary: `${bp.lattice} lattice (${bp.spaceGroup.symbol}, ${bp.convention}): ${text}; ${sampled.kpoints.length} k-points at ${density} per 1/Å`,
    };
  },
});

export const makeNscfInputTool = defineTool({
  name: 'make_nscf_input',
  description:
    "The pw.x input of a non-self-consistent run on an SCF's charge density: 'bands' along a band_path, or 'dos' on a mesh at least as " +
    "dense as the SCF's (default twice as fine in each direction) with optimised tetrahedra (default) or the SCF's smearing. " +
    "Structure, pseudopotentials, cutoffs, functional and spin are the SCF's; only the k-points, occupations (DOS) and bands change.",
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      scf: artifactRefSchema('The total_energy of the converged SCF (run_pw) whose charge density is used.', {
        names: [ARTIFACT.totalEnergy],
      }),
      purpose: { type: 'string', enum: ['bands', 'dos'] },
      kPoints: artifactRefSchema('The band path (band_path), for purpose bands.', { names: [ARTIFACT.bandPath] }),
      kMesh: kMeshSchema('The DOS mesh (purpose dos).'),
      kSpacingPerAngstrom: quantitySchema('The DOS mesh as a spacing (with 2π), purpose dos', '1/Å', { exclusiveMinimum: 0 }),
      occupations: {
        type: 'string',
        enum: ['tetrahedra_opt', 'smearing'],
        description: "DOS only: 'tetrahedra_opt' (sharp, default) or 'smearing' (the SCF's).",
      },
      nbnd: { type: 'integer', minimum: 1, description: 'Bands to compute (default: the occupied ones and at least four, or 20 %, more).' },
    },
    required: ['scf', 'purpose'],
    additionalProperties: false,
  },
  rules: ['nscf-uses-scf-density', 'dos-mesh-at-least-scf'],
  outputs: [ARTIFACTS.pwInput],
  parameterNotes: {
    kMesh: "for a DOS at least the SCF's mesh in every direction, typically twice as fine.",
    occupations: "'tetrahedra_opt' for a clean DOS of a metal or an insulator; 'smearing' where tetrahedra are not wanted.",
  },
  async run(args, ctx) {
    const scf = scfSource(view(ctx), ctx.runDir, args.scf);
    if (typeof scf === 'string') throw new Error(`make_nscf_input: ${scf}.`);
    const { input } = scf;
    if (!input.options || !input.pseudos)
      throw new Error(
        `make_nscf_input: the SCF's input ${scf.inputRef} was not made by make_pw_input, so it cannot be rendered again; make the SCF with make_pw_input.`,
      );
    const electrons = scf.output?.settings.electrons;
    if (electrons === undefined)
      throw new Error(
        `make_nscf_input: the SCF's output (of ${scf.energy.creator}) does not give its number of electrons; it may be missing or cut short.`,
      );
    const nbnd = args.nbnd ?? defaultNbnd(electrons, input.settings.nspin);
    let rendered;
    let pathRef: string | undefined;
    if (args.purpose === 'bands') {
      if (!args.kPoints) throw new Error("make_nscf_input: purpose 'bands' needs kPoints (a band_path artifact).");
      const bp = ctx.resolve(args.kPoints) as BandPathValue;
      pathRef = args.kPoints;
      rendered = renderNscfInput(
        { structure: input.structure, options: input.options, pseudos: input.pseudos },
        { kind: 'bands', nbnd, path: bp.nodes },
      );
    } else {
      const scfMesh = input.settings.kMesh ?? [1, 1, 1];
      const mesh =
        args.kMesh ??
        (args.kSpacingPerAngstrom !== undefined
          ? meshFromSpacing(input.structure.cell, args.kSpacingPerAngstrom, input.structure.pbc)
          : (scfMesh.map((n) => 2 * n) as [number, number, number]));
      rendered = renderNscfInput(
        { structure: input.structure, options: input.options, pseudos: input.pseudos },
        { kind: 'dos', nbnd, kMesh: mesh, occupations: args.occupations ?? 'tetrahedra_opt' },
      );
    }
    const value: PwInputValue = {
      text: rendered.text,
      settings: rendered.settings,
      structure: input.structure,
      calculation: rendered.calculation,
      pseudos: input.pseudos,
      ...(input.pseudoDirectory ? { pseudoDirectory: input.pseudoDirectory } : {}),
    };
    return {
      artifacts: [
        {
          kind: 'qe-input',
          name: ARTIFACT.pwInput,
          value,
          file: { name: 'pw.in', bytes: rendered.text },
          inputs: [scf.inputRef],
          meta: {
            settings: rendered.settings,
            purpose: 'production',
            nscfPurpose: args.purpose,
            scf: scf.energy.id,
            nbnd,
            ...(pathRef ? { kPoints: pathRef } : {}),
          },
        },
      ],
      summary:
        `pw.x ${rendered.calculation} input on the charge density of ${scf.energy.id}: ${nbnd} bands, ` +
        (args.purpose === 'bands' ? 'along the band path' : `${rendered.settings.kMesh!.join('×')} mesh, ${rendered.settings.occupations}`),
    };
  },
});

export const runNscfTool = defineTool({
  name: 'run_nscf',
  description:
    "Run a 'bands' or 'nscf' pw.x input (make_nscf_input) on a copy of the SCF job's saved charge density, on the SCF's backend, " +
    'and return its output with the electrons, Fermi level and k-points it read; bands.x, dos.x and projwfc.x continue from it.',
  roles: ['hpc', 'dft'],
  input: {
    type: 'object',
    properties: {
      input: artifactRefSchema('The bands or nscf input (make_nscf_input).', { kinds: ['qe-input'], names: [ARTIFACT.pwInput] }),
      scf: artifactRefSchema('The total_energy of the SCF whose charge density it reads.', { names: [ARTIFACT.totalEnergy] }),
      backend: { type: 'string', minLength: 1, description: "Where the SCF ran ('local' or its cluster profile); default the SCF's." },
    },
    required: ['input', 'scf'],
    additionalProperties: false,
  },
  rules: ['nscf-uses-scf-density', 'dos-mesh-at-least-scf'],
  outputs: [ARTIFACTS.nscfOutput],
  async run(args, ctx) {
    const jobs = service(ctx, 'jobs', 'run_nscf', 'the host opens the job service of the run');
    const pseudoDir = service(ctx, 'pseudoDir', 'run_nscf', 'set the pseudopotential directory (dreams.pseudoDir)');
    const scf = scfSource(view(ctx), ctx.runDir, args.scf);
    if (typeof scf === 'string') throw new Error(`run_nscf: ${scf}.`);
    const parent = jobs.get(scf.job);
    if (!parent) {
      throw new Error(
        `run_nscf: the SCF's job ${scf.job || '(none recorded)'} is not in this run${scf.meta.reusedFrom ? ' (its result was reused from an earlier run)' : ''}, so its charge density is not here; run the SCF in this run first.`,
      );
    }
    const backend = args.backend ?? parent.backend;
    if (!backendsOf(ctx).includes(backend))
      throw new Error(`run_nscf: backend "${backend}" is not configured; use one of ${backendsOf(ctx).join(', ')}.`);
    const input = ctx.resolve(args.input) as PwInputValue;
    const created = await jobs.create({
      backend,
      id: jobIdForCall(ctx.runId, ctx.callId),
      input: { name: 'pw.in', text: input.text, artifact: args.input },
      pseudopotentials: Object.values(input.settings.pseudopotentials).map((p) => ({ name: p.file, path: path.join(pseudoDir, p.file) })),
      ...(parent.resources ? { resources: { ...parent.resources, reason: `sized like the SCF job ${parent.id}` } } : {}),
      call: ctx.callId,
      parent: { job: parent.id },
    });
    ctx.progress(`job ${created.id} on ${backend}: pw.x ${input.calculation} on a copy of job ${parent.id}'s charge density`);
    await jobs.validate(created.id);
    await jobs.submit(created.id);
    const done = await jobs.waitFor(created.id);
    const file = path.join(jobs.jobDir(done.id), outputNameFor(done.input));
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const out = parsePwOutput(text);
    const ok = done.state === 'completed' && out.jobDone && !out.error;
    const nks = out.settings.kPoints;
    const meta: NscfMeta = {
      job: done.id,
      backend,
      calculation: input.calculation === 'bands' ? 'bands' : 'nscf',
      scf: scf.energy.id,
      settings: input.settings,
      scfOccupations: scf.input.settings.occupations,
      ...(scf.output?.fermiEnergyEv !== undefined ? { scfFermiEnergyEv: scf.output.fermiEnergyEv } : {}),
      ...(scf.output?.highestOccupiedEv !== undefined ? { scfHighestOccupiedEv: scf.output.highestOccupiedEv } : {}),
      ...(scf.output?.fermiEnergiesUpDownEv ? { scfFermiEnergiesUpDownEv: scf.output.fermiEnergiesUpDownEv } : {}),
      ...(typeof scf.output?.totalMagnetization === 'number' ? { scfMagnetization: scf.output.totalMagnetization } : {}),
      ...(out.fermiEnergyEv !== undefined ? { fermiEnergyEv: out.fermiEnergyEv } : {}),
      electrons: out.settings.electrons ?? scf.output?.settings.electrons ?? NaN,
      nspin: input.settings.nspin,
      nbnd: out.settings.kohnShamStates ?? NaN,
      alatBohr: out.settings.alatBohr ?? NaN,
      kpointCount: nks ?? NaN,
    };
    // the top of the occupied states on this run's own (denser) mesh, where pw.x printed its eigenvalues and they show a gap
    const eig = meta.calculation === 'nscf' ? printedEigenvalues(text) : undefined;
    const top = eig ? valenceEdges(meta, meta.electrons, eig.up, eig.down) : undefined;
    if (top) Object.assign(meta, { nscfHighestOccupiedEv: top.vbmEv, nscfGapped: true });
    const problems = ok ? '' : `${done.error ?? (out.error ? out.error.message : 'pw.x did not reach JOB DONE')}`;
    return {
      artifacts: [
        {
          kind: 'file',
          name: ARTIFACT.nscfOutput,
          file: { name: 'pw.out', bytes: text },
          status: ok ? 'final' : 'provisional',
          inputs: [args.scf],
          meta,
        },
      ],
      summary: ok
        ? `job ${done.id} completed: ${meta.calculation} run of ${nks} k-points, ${meta.nbnd} bands${meta.fermiEnergyEv !== undefined ? `, Fermi energy ${meta.fermiEnergyEv} eV` : ''}`
        : `job ${done.id} ${done.state} — provisional: ${problems}`,
    };
  },
});
