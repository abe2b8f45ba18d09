/**
 * A magnetization needs a collinear spin-polarised run: nspin = 2 with a starting
 * magnetization, or pw.x converges to the non-magnetic state it was started in (nspin = 1
 * has no moment at all). An ordering energy (E_AFM − E_FM) needs spin-polarised energies that
 * ended in different orders: an antiferromagnetic start that collapsed to the ferromagnetic or
 * non-magnetic state gives some other difference.
 */
import type { ArtifactRecord } from '../../provenance/types';
import { energySourceOf } from '../../artifacts/energySource';
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'magnetization-needs-spin';

export const magnetizationNeedsSpin: TierOneRule = (input) => {
  const { tool, args } = input.call;
  const ordering = tool === 'energy_difference' && args.quantity === 'magnetic_ordering_energy';
  if (tool !== 'magnetization' && !ordering) return [verdict(RULE, 'pass', ['no magnetization is asked of this call'])];
  const refs = referencesOf(input).filter(
    (r) => r.asArtifact && r.resolution.ok && (r.parameter === 'energy' || r.parameter === 'energies'),
  );
  const out = [];
  const orders: { ref: string; order: string }[] = [];
  for (const r of refs) {
    const a = (r.resolution as { artifact: ArtifactRecord }).artifact;
    const s = energySourceOf(input.provenance, a.id);
    if (!s) continue;
    if (s.settings.nspin !== 2) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${label(r)} references ${a.id}, an nspin = ${s.settings.nspin} run: it has no magnetization. ` +
              'Run it spin-polarised (make_pw_input nspin 2 with a startingMagnetization) and reference that energy.',
          ],
          r.parameter,
        ),
      );
      continue;
    }
    const start = s.input?.options?.startingMagnetization;
    if (s.input && (!start || !Object.values(start).some((m) => m !== 0))) {
      out.push(
        verdict(
          RULE,
          'fail',
          [
            `${label(r)} references ${a.id}, an nspin = 2 run started with no starting magnetization: it stays in the non-magnetic state it started in. Give startingMagnetization.`,
          ],
          r.parameter,
        ),
      );
      continue;
    }
    if (!s.magnetization) {
      out.push(
        verdict(
          RULE,
          'fail',
          [`${label(r)} references ${a.id}, whose output printed no magnetization: the run did not finish its SCF. Run it again.`],
          r.parameter,
        ),
      );
      continue;
    }
    orders.push({ ref: a.id, order: s.magnetization.order });
  }
  if (out.length) return out;
  if (ordering) {
    const distinct = new Set(orders.map((o) => o.order));
    if (orders.length >= 2 && distinct.size < 2) {
      return [
        verdict(
          RULE,
          'fail',
          [
            `every energy ended in the same magnetic order (${orders.map((o) => `${o.ref}: ${o.order}`).join(', ')}): the runs did not keep the orders they were started in, so their difference is no ordering energy. ` +
              "Start each order with its own species labels and starting moments (magnetic_configuration), and check each run's magnetization.",
          ],
          'energies',
        ),
      ];
    }
    const collapsed = orders.filter((o) => o.order === 'non-magnetic');
    if (collapsed.length) {
      return [
        verdict(
          RULE,
          'fail',
          [
            `${collapsed.map((o) => o.ref).join(', ')} converged to a non-magnetic state: an ordering energy compares magnetic orders. Start it with larger moments, or report it as a non-magnetic state.`,
          ],
          'energies',
        ),
      ];
    }
    return [
      verdict(
        RULE,
        'pass',
        [`spin-polarised energies in different orders: ${orders.map((o) => `${o.ref} ${o.order}`).join(', ')}`],
        'energies',
      ),
    ];
  }
  return [
    verdict(
      RULE,
      'pass',
      [`an nspin = 2 run with a starting magnetization (${orders.map((o) => `${o.ref} ${o.order}`).join(', ')})`],
      'energy',
    ),
  ];
};
