/**
 * magnetization: the total and absolute magnetization (μB per cell and per atom), the moment of
 * each site and the magnetic order of a finished collinear spin-polarised run (nspin = 2), read
 * from its pw.x output. Site moments are pw.x's own (integrated in a sphere around each atom),
 * or the Löwdin moments of a projwfc.x run on the same SCF when one is given.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { magnetizationOf } from '../dft/magnetism';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';
import type { MagnetizationValue } from '../artifacts/relaxation';
import type { PdosValue } from '../artifacts/electronic';
import { parseRef } from '../provenance/view';
import { finishedRunOf, formulaOf } from './runOutput';

const fmt = (x: number): string => String(Number(x.toPrecision(4)));

/** Löwdin moments per atom (μB, in atom order) of a pdos artifact (run_projwfc): the polarisation (up − down) of each atom. */
function lowdinMoments(value: unknown): number[] | undefined {
  const rows = (value as PdosValue | undefined)?.lowdin;
  if (!Array.isArray(rows) || !rows.length) return undefined;
  const sorted = [...rows].sort((a, b) => a.atom - b.atom);
  const moments = sorted.map((r) => r.polarization);
  return moments.every((m): m is number => typeof m === 'number') ? moments : undefined;
}

export const magnetizationTool = defineTool({
  name: 'magnetization',
  description:
    'The magnetization of a finished collinear spin-polarised run (nspin = 2; reference its total_energy): total and absolute moment per ' +
    'cell and per atom (μB), the moment of every site, and the order they show (ferromagnetic, antiferromagnetic, ferrimagnetic, ' +
    "non-magnetic). Site moments are pw.x's (spheres around the atoms) unless lowdin names a projwfc.x result of the same SCF.",
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      energy: artifactRefSchema('The total energy of an nspin = 2 run (run_pw output).', {
        names: [ARTIFACT.totalEnergy],
        kinds: ['scalar'],
      }),
      lowdin: artifactRefSchema(
        "Optional: the pdos of a projwfc.x run (run_projwfc) on this SCF, whose Löwdin moments replace pw.x's sphere moments.",
        { names: [ARTIFACT.pdos], kinds: ['table'] },
      ),
    },
    required: ['energy'],
    additionalProperties: false,
  },
  rules: ['magnetization-needs-spin'],
  outputs: [ARTIFACTS.magnetization],
  parameterJudge: false,
  async run({ energy, lowdin }, ctx) {
    const run = finishedRunOf(ctx, energy, 'magnetization');
    const moments = lowdin ? lowdinMoments(ctx.resolve(lowdin)) : undefined;
    if (lowdin && !moments)
      throw new Error(
        `magnetization: ${lowdin} holds no Löwdin polarisation per atom (a spin-polarised projwfc.x run prints it); reference the pdos of run_projwfc on this SCF, or leave lowdin out to use pw.x's site moments.`,
      );
    if (lowdin) {
      const source = run.view.artifact(parseRef(lowdin)?.artifactId ?? '');
      const scf = (source?.meta as { scf?: string } | undefined)?.scf;
      if (scf && scf !== run.energy.id)
        throw new Error(
          `magnetization: ${lowdin} was computed from the SCF ${scf}, not from ${energy}; reference the projwfc.x result of this SCF.`,
        );
    }
    // the structure pw.x ended at (a relaxation's last geometry has the same atoms in the same order)
    const m = magnetizationOf(run.output, run.input.structure, { nspin: run.meta.settings.nspin, ...(moments ? { lowdin: moments } : {}) });
    const formula = formulaOf(run.input.structure.symbols);
    const value: MagnetizationValue = {
      ...m,
      nspin: 2,
      formula,
      settings: run.meta.settings,
      ...(run.output.settings.kPoints !== undefined ? { kpointCount: run.output.settings.kPoints } : {}),
      title: `Magnetization of ${formula} (${run.call.id})`,
    };
    const sites = m.sites.length
      ? `; site moments (${m.siteSource}) ${m.sites.map((s) => `${s.label ?? s.symbol}(${s.atom}) ${fmt(s.momentBohrMagneton)}`).join(', ')} μB`
      : '; pw.x printed no site moments';
    return {
      artifacts: [
        {
          kind: 'table',
          name: ARTIFACT.magnetization,
          value,
          status: run.energy.status === 'final' ? 'final' : 'provisional',
          inputs: [run.outputArtifact.id],
          meta: { settings: run.meta.settings, natoms: m.natoms, formula },
        },
      ],
      summary: `${formula}: ${m.order}, total ${fmt(m.totalBohrMagnetonPerCell)} μB/cell (${fmt(m.totalBohrMagnetonPerAtom)} μB/atom), absolute ${fmt(m.absoluteBohrMagnetonPerCell)} μB/cell${sites}`,
    };
  },
});
