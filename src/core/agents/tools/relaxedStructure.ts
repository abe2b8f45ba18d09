/**
 * relaxed_structure: the geometry a pw.x relaxation ended at, as a structure artifact
 * derived from the relaxation's energy. The atoms keep what the input structure said
 * about them (tags, fixed atoms, slab info), so a later calculation on the relaxed
 * geometry (a BEEF-vdW ensemble, a finer SCF) knows it is the same slab.
 */
import type { Structure, Vec3 } from '../../dft/types';
import { artifactRefSchema } from '../../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../../guard/assessCall';
import { parseRef } from '../../guard/ports';
import { ARTIFACT, type EnergyMeta, type PwInputValue } from './artifactShapes';
import { service } from './services';

/** Largest displacement of a fixed atom (Å) still read as "did not move": pw.x prints 1e-9 Å digits. */
const FIXED_TOLERANCE_ANGSTROM = 1e-6;

export const relaxedStructureTool: GuardedToolSpec = {
  name: 'relaxed_structure',
  description:
    'The final geometry of a finished relax or vc-relax run (reference the total_energy run_pw returned for it) as a structure, ' +
    'with the tags, fixed atoms and info of the input structure.',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      relaxation: artifactRefSchema('The total energy of a converged relax or vc-relax run (run_pw output).', { names: [ARTIFACT.totalEnergy], kinds: ['scalar'] }),
    },
    required: ['relaxation'],
    additionalProperties: false,
  },
  rules: [],
  async run(raw, ctx) {
    const { relaxation } = raw as { relaxation: string };
    const view = service(ctx, 'provenance', 'relaxed_structure', 'the guard passes the run provenance to every call');
    const energy = view.artifact(parseRef(relaxation)?.artifactId ?? '');
    const meta = energy?.meta as EnergyMeta | undefined;
    // run_pw's input argument: its recorded reference, or the artifact id given as the value itself
    const inputArg = energy ? view.call(energy.creator)?.args.input : undefined;
    const inputRef = inputArg?.ref ?? (typeof inputArg?.value === 'string' && parseRef(inputArg.value) ? inputArg.value : undefined);
    const input = inputRef ? (ctx.resolve(inputRef) as PwInputValue) : undefined;
    if (!energy || !meta || !input?.structure) {
      throw new Error(`relaxed_structure: ${relaxation} is not a total energy from a run_pw call on a make_pw_input input; reference the energy of the relaxation.`);
    }
    if (input.calculation !== 'relax' && input.calculation !== 'vc-relax') {
      throw new Error(`relaxed_structure: ${relaxation} comes from a calculation='${input.calculation}' run, which does not move the atoms; reference the energy of a relax or vc-relax run.`);
    }
    const final = meta.finalPositionsAngstrom as Vec3[] | undefined;
    const start = input.structure;
    if (!final || final.length !== start.symbols.length) {
      throw new Error(`relaxed_structure: the run behind ${relaxation} printed ${final?.length ?? 'no'} final positions for ${start.symbols.length} atoms; the relaxation output is incomplete, so rerun it.`);
    }
    const cell = (meta.cellAngstrom as Structure['cell'] | undefined) ?? start.cell;
    const moved = final.map((p, i) => Math.hypot(p[0] - start.positions[i]![0], p[1] - start.positions[i]![1], p[2] - start.positions[i]![2]));
    const fixedMoved = moved.filter((d, i) => start.fixed?.[i] && d > FIXED_TOLERANCE_ANGSTROM).length;
    const structure: Structure = { ...start, positions: final.map((p) => [...p] as Vec3), cell };
    const maxFree = Math.max(0, ...moved.filter((_, i) => !start.fixed?.[i]));
    return {
      artifacts: [{
        kind: 'structure', name: ARTIFACT.relaxedStructure, value: structure, inputs: [inputRef!],
        meta: {
          natoms: structure.symbols.length, fixedAtoms: start.fixed?.filter(Boolean).length ?? 0,
          maxDisplacementAngstrom: maxFree, fixedAtomsMoved: fixedMoved,
          ...(start.info?.site !== undefined ? { site: start.info.site } : {}),
        },
      }],
      summary: `relaxed geometry of ${relaxation}: ${structure.symbols.length} atoms, largest displacement ${maxFree.toFixed(3)} Å, ` +
        `${start.fixed?.filter(Boolean).length ?? 0} fixed atom(s)${fixedMoved ? ` (${fixedMoved} moved: check the constraints)` : ' unmoved'}`,
    };
  },
};
