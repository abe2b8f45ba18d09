/**
 * A DOS samples the Brillouin zone at least as densely as the SCF that made its charge density:
 * a coarser mesh (or a band path, which samples a line) gives a DOS worse than the density it
 * rests on. Checked where the mesh is chosen (make_nscf_input), where the run is started
 * (run_nscf) and where the DOS is read (run_dos_x, run_projwfc). Meshes compare per direction.
 */
import type { PwInputValue } from '../../artifacts/shapes';
import type { NscfMeta } from '../../artifacts/electronic';
import { meshFromSpacing } from '../../dft/kpoints';
import { resolvedArgument, verdict, type TierOneRule } from './ruleInput';
import { scfOfEnergy, type ScfRecord } from './scfOfEnergy';

export const RULE = 'dos-mesh-at-least-scf';

type Mesh = [number, number, number];

function compare(scf: ScfRecord, mesh: Mesh | undefined, where: string, parameter: string) {
  const scfMesh = scf.meta.settings.kMesh;
  if (!scfMesh) return [verdict(RULE, 'pass', [`the SCF ${scf.energy.id} records no mesh to compare with`], parameter)];
  if (!mesh)
    return [
      verdict(
        RULE,
        'fail',
        [
          `${where} has no k-mesh: a DOS needs a mesh at least as dense as the SCF's ${scfMesh.join('×')} (a band path samples only lines).`,
        ],
        parameter,
      ),
    ];
  const coarser = mesh.map((n, i) => n < scfMesh[i]!);
  if (coarser.some(Boolean)) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `${where} samples ${mesh.join('×')}, coarser than the SCF's ${scfMesh.join('×')} along ${coarser.map((c, i) => (c ? 'abc'[i] : '')).join('')}: ` +
            `a DOS needs at least the SCF's density in every direction (typically twice as fine, ${scfMesh.map((n) => 2 * n).join('×')}).`,
        ],
        parameter,
      ),
    ];
  }
  return [verdict(RULE, 'pass', [`${where} samples ${mesh.join('×')}, at least the SCF's ${scfMesh.join('×')}`], parameter)];
}

export const dosMeshAtLeastScf: TierOneRule = (input) => {
  const { call, provenance } = input;
  switch (call.tool) {
    case 'make_nscf_input': {
      if (call.args.purpose !== 'dos') return [verdict(RULE, 'pass', ['not a DOS mesh'])];
      const scf = scfOfEnergy(provenance, call.args.scf);
      if (typeof scf === 'string') return [verdict(RULE, 'pass', [`no SCF to compare with (${scf}); nscf-uses-scf-density reports it`])];
      const spacing = typeof call.args.kSpacingPerAngstrom === 'number' ? call.args.kSpacingPerAngstrom : undefined;
      const mesh = Array.isArray(call.args.kMesh)
        ? (call.args.kMesh as Mesh)
        : spacing !== undefined && scf.input
          ? meshFromSpacing(scf.input.structure.cell, spacing, scf.input.structure.pbc)
          : (scf.meta.settings.kMesh?.map((n) => 2 * n) as Mesh | undefined);
      return compare(scf, mesh, 'the DOS mesh', Array.isArray(call.args.kMesh) ? 'kMesh' : 'kSpacingPerAngstrom');
    }
    case 'run_nscf': {
      const nscf = resolvedArgument(input, 'input')?.value as PwInputValue | undefined;
      if (!nscf || nscf.calculation !== 'nscf') return [verdict(RULE, 'pass', ['not a DOS run'])];
      const scf = scfOfEnergy(provenance, call.args.scf);
      if (typeof scf === 'string') return [verdict(RULE, 'pass', [`no SCF to compare with (${scf})`])];
      return compare(scf, nscf.settings.kMesh, 'the nscf input', 'input');
    }
    default: {
      // run_dos_x, run_projwfc: the run they read
      const run = resolvedArgument(input, 'nscf');
      if (!run) return [verdict(RULE, 'pass', ['no nscf run referenced'])];
      const meta = run.artifact.meta as NscfMeta | undefined;
      if (meta?.calculation === 'bands') {
        return [
          verdict(
            RULE,
            'fail',
            [
              `${run.artifact.id} is a band-path run: it samples lines, not the Brillouin zone, so its DOS would be wrong. Run make_nscf_input with purpose 'dos' and run_nscf, then read that run.`,
            ],
            'nscf',
          ),
        ];
      }
      const scf = meta ? scfOfEnergy(provenance, meta.scf) : 'no run meta';
      if (typeof scf === 'string') return [verdict(RULE, 'pass', [`no SCF recorded to compare with (${scf})`])];
      return compare(scf, meta!.settings.kMesh as Mesh | undefined, `the nscf run ${run.artifact.id}`, 'nscf');
    }
  }
};
