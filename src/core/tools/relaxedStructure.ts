/**
 * relaxed_structure: the geometry a pw.x relaxation ended at, as a structure artifact
 * derived from the relaxation's energy. The atoms keep what the input structure said
 * about them (tags, fixed atoms, slab info), so a later calculation on the relaxed
 * geometry (a BEEF-vdW ensemble, a finer SCF) knows it is the same slab.
 *
 * interrupted_geometry: the last geometry a relaxation reached before it was cut short
 * (DREAMS stopped, the job killed or out of wall time), as the starting point of the
 * relaxation run again, so the BFGS steps already paid for are not redone. Only the
 * positions come from the interrupted run; the structure is derived from that run's
 * input's structure, so nothing provisional sits upstream of the energies computed from it.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import type { Structure, Vec3 } from '../dft/types';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import { parseRef } from '../provenance/view';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from '../artifacts/shapes';
import { inputRefOfRun } from './runPw';
import { service, type CatalogueContext } from './services';

/** Largest displacement of a fixed atom (Å) still read as "did not move": pw.x prints 1e-9 Å digits. */
const FIXED_TOLERANCE_ANGSTROM = 1e-6;

/** The run_pw call behind a total energy, its input and the positions it printed last. */
function relaxationOf(relaxation: string, ctx: CatalogueContext, tool: string) {
  const view = service(ctx, 'provenance', tool, 'the guard passes the run provenance to every call');
  const energy = view.artifact(parseRef(relaxation)?.artifactId ?? '');
  const meta = energy?.meta as EnergyMeta | undefined;
  const call = energy ? view.call(energy.creator) : undefined;
  const inputRef = inputRefOfRun(call);
  const input = inputRef ? (ctx.resolve(inputRef) as PwInputValue) : undefined;
  if (!energy || !meta || !input?.structure || !inputRef || !call) {
    throw new Error(
      `${tool}: ${relaxation} is not a total energy from a run_pw call on a make_pw_input input; reference the energy of the relaxation.`,
    );
  }
  if (input.calculation !== 'relax' && input.calculation !== 'vc-relax') {
    throw new Error(
      `${tool}: ${relaxation} comes from a calculation='${input.calculation}' run, which does not move the atoms; reference the energy of a relax or vc-relax run.`,
    );
  }
  const final = meta.finalPositionsAngstrom as Vec3[] | undefined;
  const start = input.structure;
  return {
    view,
    energy,
    meta,
    call,
    inputRef,
    start,
    final: final && final.length === start.symbols.length ? final : undefined,
    printed: final?.length,
  };
}

/**
 * Relaxations that ended, unconverged, at a geometry better than their start: continuing from the
 * last one is the fix. A vc-relax whose final SCF (with the plane waves of the final cell) is above
 * its thresholds needs one more vc-relax from there, in whose basis the cell hardly changes; one
 * that ran out of ionic steps, more steps from where it stopped.
 */
export const CONTINUABLE_FAILURES: ReadonlySet<string> = new Set(['final-scf-above-thresholds', 'steps-exhausted']);

/** The failure kind run_pw recorded for a relaxation's energy, when it is one a continuation fixes. */
export function continuableFailure(meta: Record<string, unknown> | undefined): string | undefined {
  const kind = (meta?.relaxation as { failureKind?: string } | undefined)?.failureKind;
  return kind && CONTINUABLE_FAILURES.has(kind) ? kind : undefined;
}

/** Whether a vc-relax changed the cell (any component by more than 1e-6 Å). */
export function cellMoved(start: Structure['cell'], final: unknown): boolean {
  const f = final as Structure['cell'] | undefined;
  return !!f && f.some((v, i) => v.some((x, j) => Math.abs(x - start[i]![j]!) > FIXED_TOLERANCE_ANGSTROM));
}

/** How far the free atoms moved from the start (the largest), and how many fixed atoms moved at all. */
export function movement(start: Structure, final: Vec3[]) {
  const moved = final.map((p, i) =>
    Math.hypot(p[0] - start.positions[i]![0], p[1] - start.positions[i]![1], p[2] - start.positions[i]![2]),
  );
  return {
    maxFree: Math.max(0, ...moved.filter((_, i) => !start.fixed?.[i])),
    fixedMoved: moved.filter((d, i) => start.fixed?.[i] && d > FIXED_TOLERANCE_ANGSTROM).length,
  };
}

const SEED_ONLY =
  'it is the starting geometry of a relaxation, which converges to the same minimum from any nearby start; the interrupted energy itself is not used';

export const interruptedGeometryTool = defineTool({
  name: 'interrupted_geometry',
  description:
    'The last geometry a relax or vc-relax run reached before it was cut short (stopped, killed, out of wall time): reference the ' +
    'provisional total energy run_pw returned for it. Gives a structure (tags, fixed atoms and info of the input structure) to ' +
    'relax again from, so the ionic steps already done are not repeated; also for a relaxation that ran out of ionic steps, or a vc-relax ' +
    'whose final SCF at the relaxed cell is above its thresholds (one more vc-relax from there). Not for converged relaxations: use relaxed_structure.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      relaxation: artifactRefSchema('The provisional total energy of the interrupted relax or vc-relax run (run_pw output).', {
        names: [ARTIFACT.totalEnergy],
        kinds: ['scalar'],
        seedOnly: SEED_ONLY,
      }),
    },
    required: ['relaxation'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.restartStructure],
  parameterJudge: false,
  async run({ relaxation }, ctx) {
    const r = relaxationOf(relaxation, ctx, 'interrupted_geometry');
    if (r.energy.status === 'final') {
      throw new Error(`interrupted_geometry: the relaxation behind ${relaxation} finished; take its geometry with relaxed_structure.`);
    }
    const outFile = r.call.outputs.map((id) => r.view.artifact(id)).find((a) => a?.name === ARTIFACT.pwOutput);
    const state = (outFile?.meta as { state?: string } | undefined)?.state;
    const continuable = continuableFailure(r.meta);
    if (state === 'completed' && !continuable) {
      throw new Error(
        `interrupted_geometry: the job of ${r.call.id} completed, so the relaxation was not interrupted but did not converge; ` +
          'consult the convergence advisor on it rather than continuing from where it stopped.',
      );
    }
    if (!r.final) {
      throw new Error(
        `interrupted_geometry: the run behind ${relaxation} printed ${r.printed ?? 'no'} positions for ${r.start.symbols.length} atoms; ` +
          'it stopped before its first ionic step, so run the relaxation again from its input structure.',
      );
    }
    const { maxFree, fixedMoved } = movement(r.start, r.final);
    if (maxFree === 0 && !cellMoved(r.start.cell, r.meta.cellAngstrom)) {
      throw new Error(
        `interrupted_geometry: the run behind ${relaxation} stopped before any atom or the cell moved; run the relaxation again from its input structure.`,
      );
    }
    if (fixedMoved) {
      throw new Error(
        `interrupted_geometry: ${fixedMoved} fixed atom(s) moved in the run behind ${relaxation}; check the constraints of its input before continuing it.`,
      );
    }
    const cell = (r.meta.cellAngstrom as Structure['cell'] | undefined) ?? r.start.cell;
    // Fixed atoms keep their input positions exactly (pw.x prints ten decimals), so a run
    // continued more than once does not drift them by rounding.
    const structure: Structure = {
      ...r.start,
      positions: r.final.map((p, i) => [...(r.start.fixed?.[i] ? r.start.positions[i]! : p)] as Vec3),
      cell,
    };
    const steps = r.meta.ionicSteps as number | undefined;
    // Derived from the structure the interrupted input was made from, not from that input:
    // the input is superseded when its step is made again from this geometry, and what is
    // downstream of a superseded input goes stale.
    const origin = r.view
      .artifact(parseRef(r.inputRef)?.artifactId ?? '')
      ?.inputs.find((ref) => r.view.artifact(parseRef(ref)?.artifactId ?? '')?.kind === 'structure');
    return {
      artifacts: [
        {
          kind: 'structure',
          name: ARTIFACT.restartStructure,
          value: structure,
          inputs: [origin ?? r.inputRef],
          meta: {
            natoms: structure.symbols.length,
            fixedAtoms: r.start.fixed?.filter(Boolean).length ?? 0,
            maxDisplacementAngstrom: maxFree,
            continues: { call: r.call.id, energy: r.energy.id, ...(steps !== undefined ? { ionicSteps: steps } : {}) },
            ...(r.start.info?.site !== undefined ? { site: r.start.info.site } : {}),
          },
        },
      ],
      summary:
        `last geometry of the interrupted relaxation ${r.call.id}${steps !== undefined ? ` (${steps} geometries)` : ''}: ${structure.symbols.length} atoms, ` +
        `${maxFree.toFixed(3)} Å from its start at most; relax again from here`,
    };
  },
});

export const relaxedStructureTool = defineTool({
  name: 'relaxed_structure',
  description:
    'The final geometry of a finished relax or vc-relax run (reference the total_energy run_pw returned for it) as a structure, ' +
    'with the tags, fixed atoms and info of the input structure.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      relaxation: artifactRefSchema('The total energy of a converged relax or vc-relax run (run_pw output).', {
        names: [ARTIFACT.totalEnergy],
        kinds: ['scalar'],
      }),
    },
    required: ['relaxation'],
    additionalProperties: false,
  },
  rules: ['relaxation-under-thresholds'],
  outputs: [ARTIFACTS.relaxedStructure],
  async run({ relaxation }, ctx) {
    const { start, final, printed, meta, inputRef } = relaxationOf(relaxation, ctx, 'relaxed_structure');
    if (!final) {
      throw new Error(
        `relaxed_structure: the run behind ${relaxation} printed ${printed ?? 'no'} final positions for ${start.symbols.length} atoms; the relaxation output is incomplete, so rerun it.`,
      );
    }
    const cell = (meta.cellAngstrom as Structure['cell'] | undefined) ?? start.cell;
    const { maxFree, fixedMoved } = movement(start, final);
    // Not the user's file any more: the file it started from stays upstream in the provenance.
    const { source: _file, ...startAtoms } = start;
    const structure: Structure = { ...startAtoms, positions: final.map((p) => [...p] as Vec3), cell };
    return {
      artifacts: [
        {
          kind: 'structure',
          name: ARTIFACT.relaxedStructure,
          value: structure,
          inputs: [inputRef],
          meta: {
            natoms: structure.symbols.length,
            fixedAtoms: start.fixed?.filter(Boolean).length ?? 0,
            maxDisplacementAngstrom: maxFree,
            fixedAtomsMoved: fixedMoved,
            ...(start.info?.site !== undefined ? { site: start.info.site } : {}),
          },
        },
      ],
      summary:
        `relaxed geometry of ${relaxation}: ${structure.symbols.length} atoms, largest displacement ${maxFree.toFixed(3)} Å, ` +
        `${start.fixed?.filter(Boolean).length ?? 0} fixed atom(s)${fixedMoved ? ` (${fixedMoved} moved: check the constraints)` : ' unmoved'}`,
    };
  },
});
