/**
 * run_bands_x, band_gap, run_dos_x, run_projwfc: QE's post-processing programs as jobs that
 * continue a bands or nscf run (each on a copy of its saved files), and the band gap read from
 * the bands. Their artifacts carry the plot shapes of src/shared/electronicStructure.ts.
 * Energies in eV, path coordinates in 1/Å, DOS in states/eV per cell.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { bandGap } from '../dft/electronic/bandGap';
import { bandsAlongPath, locateOnPath } from '../dft/electronic/bandStructure';
import { pdosBySpeciesAndL } from '../dft/electronic/dos';
import { bandStructureZero, dosZero, valenceEdges, ZERO_SOURCE } from '../dft/electronic/energyZero';
import { pathFromNodes } from '../dft/electronic/kpath';
import { scratchPlace } from '../dft/qe/jobFacts';
import { parseBandFile, renderBandsxInput } from '../dft/qe/postprocessing/bandsx';
import { parseDosFile, renderDosxInput } from '../dft/qe/postprocessing/dosx';
import { parseLowdinCharges, parsePdosFiles, renderProjwfcxInput } from '../dft/qe/postprocessing/projwfcx';
import type { JobService } from '../hpc/jobService';
import { outputNameFor } from '../hpc/localRunner';
import type { JobProgram, JobRecord } from '../hpc/types';
import { artifactRefSchema, quantitySchema } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';
import type { BandGapValue, BandPathValue, BandStructureValue, DosValue, NscfMeta, PdosValue } from '../artifacts/electronic';
import { resolveRef, type ProvenanceView } from '../provenance/view';
import { jobIdForCall } from './runPw';
import { service, type CatalogueContext } from './services';

const viewOf = (ctx: CatalogueContext): ProvenanceView => ctx.services.provenance;

/** The bands or nscf run a post-processing call continues: its meta, its job and the scratch its input names. */
function nscfRun(
  ctx: CatalogueContext,
  jobs: JobService,
  ref: string,
  tool: string,
  want: 'bands' | 'nscf' | 'any',
): { meta: NscfMeta; job: JobRecord; outdir: string; prefix: string } {
  const r = resolveRef(viewOf(ctx), ref);
  if (!r.ok) throw new Error(`${tool}: ${ref} does not resolve: ${r.problem}.`);
  if (r.artifact.name !== ARTIFACT.nscfOutput) throw new Error(`${tool}: ${ref} is a "${r.artifact.name}", not the output of run_nscf.`);
  const meta = r.artifact.meta as NscfMeta;
  if (want !== 'any' && meta.calculation !== want) {
    throw new Error(
      `${tool}: ${ref} is a '${meta.calculation}' run; ${tool} reads a '${want}' run (make_nscf_input with purpose ${want === 'bands' ? 'bands' : 'dos'}).`,
    );
  }
  if (r.artifact.status !== 'final')
    throw new Error(`${tool}: ${ref} is ${r.artifact.status}: the ${meta.calculation} run did not finish; run it again first.`);
  const job = jobs.get(meta.job);
  if (!job) throw new Error(`${tool}: job ${meta.job} of ${ref} is not in this run, so its files are not here.`);
  const place = scratchPlace(fs.readFileSync(path.join(jobs.jobDir(job.id), job.input), 'utf8'));
  return { meta, job, outdir: place.outdir ?? './', prefix: place.prefix };
}

/** Runs a post-processing program as a job continuing `parent`, and returns the finished job with its standard output. */
async function runProgram(
  ctx: CatalogueContext,
  jobs: JobService,
  parent: JobRecord,
  program: JobProgram,
  inputName: string,
  text: string,
  collect: string[],
  /** A second job of one call (bands.x's other spin channel) gets its own id: the call's with this suffix. */
  idSuffix = '',
): Promise<{ job: JobRecord; stdout: string; file: (n: string) => string }> {
  const created = await jobs.create({
    backend: parent.backend,
    id: `${jobIdForCall(ctx.runId, ctx.callId)}${idSuffix}`,
    program,
    input: { name: inputName, text },
    ...(parent.resources ? { resources: { ...parent.resources, reason: `sized like job ${parent.id}, whose files it reads` } } : {}),
    call: ctx.callId,
    parent: { job: parent.id },
    collect,
  });
  ctx.progress(`job ${created.id} on ${parent.backend}: ${program} on a copy of job ${parent.id}'s files`);
  await jobs.validate(created.id);
  await jobs.submit(created.id);
  const job = await jobs.waitFor(created.id);
  const dir = jobs.jobDir(job.id);
  const outFile = path.join(dir, outputNameFor(job.input));
  const stdout = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
  if (job.state !== 'completed')
    throw new Error(`${program} (job ${job.id}) ${job.state}: ${job.error ?? 'no error recorded'}; see ${outFile}.`);
  return { job, stdout, file: (n) => fs.readFileSync(path.join(dir, n), 'utf8') };
}

const transpose = (m: number[][]): number[][] => (m[0] ?? []).map((_, j) => m.map((row) => row[j]!));

export const runBandsXTool = defineTool({
  name: 'run_bands_x',
  description:
    "Run bands.x on a 'bands' run (run_nscf) and return the band structure along its path: energies (eV) per band and k-point, " +
    'the path coordinate (1/Å) and the labelled points, referred to the valence-band maximum of an insulator or the Fermi level of a metal. ' +
    'A spin-polarised run (nspin 2) gets bands.x once per spin channel (spin_component 1 and 2), both channels in the one artifact.',
  roles: ['hpc', 'dft'],
  input: {
    type: 'object',
    properties: {
      bands: artifactRefSchema("The 'bands' run (run_nscf output).", { names: [ARTIFACT.nscfOutput] }),
      kPoints: artifactRefSchema('The band path that run followed (band_path).', { names: [ARTIFACT.bandPath] }),
    },
    required: ['bands', 'kPoints'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.bandStructure],
  async run(args, ctx) {
    const jobs = service(ctx, 'jobs', 'run_bands_x', 'the host opens the job service of the run');
    const run = nscfRun(ctx, jobs, args.bands, 'run_bands_x', 'bands');
    const bp = ctx.resolve(args.kPoints) as BandPathValue;
    const filband = 'bands.dat';
    const sampled = pathFromNodes(bp.nodes, bp.cellAngstrom);
    // one bands.x per spin channel of a spin-polarised run: spin_component 1 (up, majority), then 2 (down) as a job of its own
    const spin = run.meta.nspin === 2;
    const channel = async (component?: 1 | 2) => {
      const text = renderBandsxInput({
        prefix: run.prefix,
        outdir: run.outdir,
        filband,
        ...(component ? { spinComponent: component } : {}),
      });
      const done = await runProgram(ctx, jobs, run.job, 'bands.x', 'bands.in', text, [filband], component === 2 ? '-spin2' : '');
      const file = parseBandFile(done.file(filband));
      return { done, file, along: bandsAlongPath(sampled, bp.cellAngstrom, run.meta.alatBohr, file) };
    };
    const up = await channel(spin ? 1 : undefined);
    const down = spin ? await channel(2) : undefined;
    const { done, file, along } = up;
    // the zero: the occupied bands' top along the path where both channels (or the one) show a gap, else the SCF's level
    const vbm = valenceEdges(run.meta, run.meta.electrons, along.energiesEv, down?.along.energiesEv)?.vbmEv;
    const fermi = run.meta.scfFermiEnergyEv;
    const twoFermi = run.meta.scfFermiEnergiesUpDownEv;
    const reference = bandStructureZero(run.meta, vbm);
    const value: BandStructureValue = {
      x: along.x,
      bandsEv: transpose(along.energiesEv),
      ...(down ? { bandsDownEv: transpose(down.along.energiesEv) } : {}),
      ticks: along.ticks.map((t) => ({ x: t.x, label: t.label })),
      reference,
      kpoints: along.kpoints,
      electrons: run.meta.electrons,
      nspin: run.meta.nspin,
      occupations: run.meta.scfOccupations,
      ...(fermi !== undefined ? { fermiEnergyEv: fermi } : {}),
      ...(twoFermi ? { fermiEnergiesUpDownEv: twoFermi } : {}),
      ...(run.meta.scfMagnetization !== undefined ? { magnetizationMuBPerCell: run.meta.scfMagnetization } : {}),
      lattice: bp.lattice,
      convention: bp.convention,
    };
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.bandStructure,
          value,
          unit: 'eV',
          inputs: [args.bands, args.kPoints],
          meta: {
            job: done.job.id,
            ...(down ? { jobs: [done.job.id, down.done.job.id] } : {}),
            scf: run.meta.scf,
            settings: run.meta.settings,
          },
        },
      ],
      summary:
        `job ${done.job.id}${down ? ` (spin up) and job ${down.done.job.id} (spin down)` : ''}: ${file.nbnd} bands${down ? ' per spin channel' : ''} at ${along.x.length} k-points along ${bp.segments.map((s) => s.join('–')).join(' | ')}; ` +
        `zero at the ${reference.kind === 'vbm' ? 'valence-band maximum' : 'Fermi level'} ${reference.energyEv.toFixed(3)} eV`,
    };
  },
});

export const bandGapTool = defineTool({
  name: 'band_gap',
  description:
    'The band gap of an insulator from its band structure (run_bands_x): the gap (eV), direct or indirect, and where the valence-band maximum ' +
    'and conduction-band minimum lie on the path. Refused for a metal: a half-filled band, overlapping bands, or a smeared run whose Fermi level lies in a band.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: { bands: artifactRefSchema('The band structure (run_bands_x).', { names: [ARTIFACT.bandStructure] }) },
    required: ['bands'],
    additionalProperties: false,
  },
  rules: ['no-gap-from-metal'],
  outputs: [ARTIFACTS.bandGap],
  async run(args, ctx) {
    const bs = ctx.resolve(args.bands) as BandStructureValue;
    const energies = transpose(bs.bandsEv);
    const gap = bandGap({
      energiesEv: energies,
      electrons: bs.electrons,
      occupations: bs.occupations,
      ...(bs.fermiEnergyEv !== undefined ? { fermiEnergyEv: bs.fermiEnergyEv } : {}),
      ...(bs.fermiEnergiesUpDownEv ? { fermiEnergiesUpDownEv: bs.fermiEnergiesUpDownEv } : {}),
      ...(bs.magnetizationMuBPerCell !== undefined ? { magnetization: bs.magnetizationMuBPerCell } : {}),
      ...(bs.nspin === 2 ? { nspin: 2 as const, ...(bs.bandsDownEv ? { energiesDownEv: transpose(bs.bandsDownEv) } : {}) } : {}),
    });
    const path = { x: bs.x, ticks: bs.ticks.map((t) => ({ ...t, index: bs.x.findIndex((x) => Math.abs(x - t.x) < 1e-12) })) };
    const edge = (e: { energyEv: number; kIndex: number }) => {
      const where = locateOnPath(path, e.kIndex);
      return { energyEv: e.energyEv, k: bs.kpoints[e.kIndex]!, x: bs.x[e.kIndex]!, location: where.text, nearest: where.nearest };
    };
    const value: BandGapValue = {
      gapEv: gap.gapEv,
      direct: gap.direct,
      vbm: edge(gap.vbm),
      cbm: edge(gap.cbm),
      directGapEv: gap.directGapEv,
      directGapLocation: locateOnPath(path, gap.directGapKIndex).text,
      occupiedBands: gap.occupiedBands,
      ...(gap.channels
        ? {
            channels: gap.channels.flatMap((c) =>
              c.metallic
                ? []
                : [{ spin: c.spin, gapEv: c.gapEv, direct: c.direct, vbm: edge(c.vbm), cbm: edge(c.cbm), occupiedBands: c.occupiedBands }],
            ),
          }
        : {}),
    };
    return {
      artifacts: [{ kind: 'table', name: ARTIFACT.bandGap, value, unit: 'eV', meta: { occupations: bs.occupations } }],
      summary:
        `${gap.direct ? 'direct' : 'indirect'} gap ${gap.gapEv.toFixed(3)} eV: valence maximum at ${value.vbm.location}, conduction minimum at ${value.cbm.location}` +
        (gap.direct ? '' : `; smallest direct gap ${gap.directGapEv.toFixed(3)} eV at ${value.directGapLocation}`) +
        (value.channels ? `; ${value.channels.map((c) => `spin ${c.spin} ${c.gapEv.toFixed(3)} eV`).join(', ')}` : ''),
    };
  },
});

const dosSchema = (what: string) => ({
  type: 'object' as const,
  properties: {
    nscf: artifactRefSchema(`The run whose wavefunctions ${what} reads (run_nscf, purpose dos).`, { names: [ARTIFACT.nscfOutput] }),
    deltaEEv: quantitySchema('Energy step of the DOS grid', 'eV', { exclusiveMinimum: 0, maximum: 1 }),
    degaussEv: quantitySchema("Gaussian broadening; absent: the run's own (tetrahedra or its smearing)", 'eV', {
      exclusiveMinimum: 0,
      maximum: 2,
    }),
  },
  required: ['nscf'] as const,
  additionalProperties: false as const,
});

export const runDosXTool = defineTool({
  name: 'run_dos_x',
  description:
    'Run dos.x on an nscf run (run_nscf, purpose dos) and return the total DOS (states/eV per cell), its integral and the Fermi energy (eV).',
  roles: ['hpc', 'dft'],
  input: dosSchema('dos.x'),
  rules: ['dos-mesh-at-least-scf'],
  outputs: [ARTIFACTS.dos],
  async run(args, ctx) {
    const jobs = service(ctx, 'jobs', 'run_dos_x', 'the host opens the job service of the run');
    const run = nscfRun(ctx, jobs, args.nscf, 'run_dos_x', 'nscf');
    const fildos = `${run.prefix}.dos`;
    const text = renderDosxInput({
      prefix: run.prefix,
      outdir: run.outdir,
      fildos,
      deltaEEv: args.deltaEEv ?? 0.02,
      ...(args.degaussEv !== undefined ? { degaussEv: args.degaussEv } : {}),
    });
    const done = await runProgram(ctx, jobs, run.job, 'dos.x', 'dos.in', text, [fildos]);
    const d = parseDosFile(done.file(fildos));
    const value: DosValue = {
      energiesEv: d.energiesEv,
      total: d.dos,
      integrated: d.integrated,
      occupations: run.meta.settings.occupations,
      ...(d.spin ? { spin: d.spin } : {}),
      ...(d.fermiEnergyEv !== undefined ? { fermiEnergyEv: d.fermiEnergyEv } : {}),
      ...(run.meta.settings.kMesh ? { kMesh: run.meta.settings.kMesh } : {}),
    };
    const zero = dosZero(
      run.meta,
      d.fermiEnergyEv !== undefined ? { energyEv: d.fermiEnergyEv, source: ZERO_SOURCE.dosxFermi } : undefined,
      { energiesEv: d.energiesEv, integrated: d.integrated, electrons: run.meta.electrons },
    );
    if (zero) value.reference = zero;
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.dos,
          value,
          unit: 'states/eV',
          inputs: [args.nscf],
          meta: { job: done.job.id, scf: run.meta.scf, settings: run.meta.settings },
        },
      ],
      summary:
        `job ${done.job.id}: DOS on ${d.energiesEv.length} energies from ${d.energiesEv[0]} to ${d.energiesEv.at(-1)} eV` +
        (d.fermiEnergyEv !== undefined ? `; Fermi energy ${d.fermiEnergyEv} eV` : ''),
    };
  },
});

export const runProjwfcTool = defineTool({
  name: 'run_projwfc',
  description:
    'Run projwfc.x on an nscf run (run_nscf, purpose dos): the DOS projected on atomic orbitals, summed per species and angular momentum ' +
    '(states/eV), with the Löwdin charges per atom and the spilling parameter.',
  roles: ['hpc', 'dft'],
  input: dosSchema('projwfc.x'),
  rules: ['dos-mesh-at-least-scf'],
  outputs: [ARTIFACTS.pdos],
  async run(args, ctx) {
    const jobs = service(ctx, 'jobs', 'run_projwfc', 'the host opens the job service of the run');
    const run = nscfRun(ctx, jobs, args.nscf, 'run_projwfc', 'nscf');
    const text = renderProjwfcxInput({
      prefix: run.prefix,
      outdir: run.outdir,
      filpdos: run.prefix,
      deltaEEv: args.deltaEEv ?? 0.02,
      ...(args.degaussEv !== undefined ? { degaussEv: args.degaussEv } : {}),
    });
    const done = await runProgram(ctx, jobs, run.job, 'projwfc.x', 'projwfc.in', text, [`${run.prefix}.pdos_*`]);
    const names = done.job.outputs.map((o) => o.name).filter((n) => n.startsWith(`${run.prefix}.pdos_`));
    const files = parsePdosFiles(Object.fromEntries(names.map((n) => [n, done.file(n)])));
    const lowdin = parseLowdinCharges(done.stdout);
    const value: PdosValue = {
      energiesEv: files.energiesEv,
      total: files.total,
      ...(files.spinTotal ? { spin: files.spinTotal } : {}),
      ...(run.meta.fermiEnergyEv !== undefined ? { fermiEnergyEv: run.meta.fermiEnergyEv } : {}),
      projections: pdosBySpeciesAndL(files.channels).map((c) => ({
        label: `${c.species} ${c.l}`,
        species: c.species,
        l: c.l,
        dos: c.dos,
        ...(c.spin ? { spin: c.spin } : {}),
      })),
      lowdin: lowdin.atoms,
      ...(lowdin.spilling !== undefined ? { spilling: lowdin.spilling } : {}),
    };
    const zero = dosZero(
      run.meta,
      run.meta.fermiEnergyEv !== undefined ? { energyEv: run.meta.fermiEnergyEv, source: ZERO_SOURCE.nscfFermi } : undefined,
    );
    if (zero) value.reference = zero;
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.pdos,
          value,
          unit: 'states/eV',
          inputs: [args.nscf],
          meta: { job: done.job.id, scf: run.meta.scf, settings: run.meta.settings },
        },
      ],
      summary:
        `job ${done.job.id}: PDOS of ${value.projections!.map((p) => p.label).join(', ')}` +
        (lowdin.spilling !== undefined ? `; Löwdin spilling ${lowdin.spilling}` : ''),
    };
  },
});
