/**
 * Deterministic checks of one report claim against the artifact it cites: the reference
 * resolves, the artifact is the right kind of source for the quantity, the value and unit
 * agree with the record (to the precision the claim states), and the artifact is final.
 */
import { allowedDifference } from '../provenance/references';
import { convert, sameDimension, type Unit } from '../units';
import { CLAIM_SOURCES } from './claimSources';
import { parseRef, resolveRef, type ProvenanceView } from '../provenance/view';
import { unitFromName } from './rules/unitNames';
import { halfLastDigit } from './statedPrecision';
import { mislabelledUnit } from './unitMislabel';
import { upstreamPath } from '../provenance/upstream';
import type { Verdict } from './types';

export interface ReportClaim {
  /** A quantity from CLAIM_SOURCES ("lattice_constant", "adsorption_energy", ...). */
  quantity: string;
  value: number;
  unit: string;
  /** The artifact (or a field of it) the value comes from. */
  cites: string;
  /** What the claim says in words ("a(Al) = 4.04 Å"). */
  statement?: string;
}

const rule = (name: string) => `claim-${name}`;

function claimVerdict(name: string, level: Verdict['level'], reasons: string[], parameter: string): Verdict {
  return { tier: 'report', rule: rule(name), level, reasons, judged: true, parameter };
}

// The precision a claim states and is checked to (statedPrecision.ts); re-exported for the report writers.
export { checkedDecimals, statedDecimals } from './statedPrecision';

/**
 * A value as a report should state it: `decimals` places, but never fewer than the claim
 * check reads (three significant figures), so a soft metal's B0 of 3.33 GPa is not written
 * 3.3 and a ΔBE of −0.0051 eV not −0.005 — either would be refused as not the recorded value.
 */
export function claimValue(x: number, decimals: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const places = Math.min(15, Math.max(decimals, 2 - Math.floor(Math.log10(Math.abs(x)))));
  return Number(x.toFixed(places));
}

/**
 * An energy from a screening model (EMT, or the user's own calculator over i-PI) is recorded
 * with its calculator; pw.x energies carry pw.x settings. `model` names it as a reader knows it.
 */
function screeningModelUpstream(view: ProvenanceView, id: string): { id: string; creator: string; model: string } | undefined {
  for (const up of upstreamPath(view, [id], 10_000)) {
    const a = up.startsWith('a-') ? view.artifact(up) : undefined;
    const meta = a?.meta as
      | { settings?: { code?: string }; calculator?: { production?: boolean; method?: string; name?: string } }
      | undefined;
    if (!a || !(meta?.settings?.code === 'emt' || meta?.calculator?.production === false)) continue;
    const model =
      meta?.settings?.code === 'emt'
        ? 'EMT'
        : meta?.settings?.code === 'ipi' || meta?.calculator?.method === 'ipi'
          ? `the i-PI calculator ${meta?.calculator?.name ?? '(unnamed)'}`
          : (meta?.calculator?.name ?? 'a screening model');
    return { id: a.id, creator: a.creator, model };
  }
  return undefined;
}

/**
 * EMT is fine for testing an adsorption search, not for final numbers: a claim of a DFT
 * quantity built on an EMT energy is refused (the report is not accepted), because a
 * reader takes an "adsorption energy" for a DFT result. Stated as a screening quantity it passes.
 */
function screeningModelCheck(claim: ReportClaim, id: string, view: ProvenanceView, label: string): Verdict[] {
  const emt = screeningModelUpstream(view, id);
  if (!emt) return [claimVerdict('calculator', 'pass', [`no screening-model energy upstream of ${claim.cites}`], label)];
  const alternative =
    claim.quantity === 'adsorption_energy'
      ? ' or state it as screening_adsorption_energy (a ranking of configurations, not a DFT number)'
      : '';
  return [
    claimVerdict(
      'calculator',
      'fail',
      [
        `${label} states ${claim.quantity} from ${claim.cites}, which is computed from ${emt.id} (${emt.creator}), ` +
          (emt.model === 'EMT'
            ? 'an EMT energy: EMT is fine for testing the search, not for final numbers.'
            : `an energy of ${emt.model}, a screening calculator: fine for ranking configurations, not for final numbers.`) +
          ` Recompute it with pw.x${alternative}.`,
      ],
      label,
    ),
  ];
}

export function checkClaim(claim: ReportClaim, index: number, view: ProvenanceView): Verdict[] {
  const label = `claims[${index}]`;
  const r = resolveRef(view, claim.cites);
  if (!r.ok) return [claimVerdict('reference', 'fail', [`${label} cites ${claim.cites}, which does not resolve: ${r.problem}`], label)];
  const out: Verdict[] = [];
  const a = r.artifact;
  const source = CLAIM_SOURCES[claim.quantity];
  if (!source) {
    out.push(
      claimVerdict(
        'source-kind',
        'fail',
        [`${label}: unknown quantity "${claim.quantity}"; report one of ${Object.keys(CLAIM_SOURCES).join(', ')}.`],
        label,
      ),
    );
  } else {
    const maker = view.call(a.creator)?.tool;
    const nameOk = source.names.includes(a.name) && (!maker || source.tools.includes(maker));
    const derivedOk = !source.derivedFrom || upstreamPath(view, [a.id]).some((id) => view.artifact(id)?.name === source.derivedFrom);
    const required = source.requires ? (a.value as Record<string, unknown> | undefined)?.[source.requires.field] : undefined;
    if (nameOk && derivedOk && source.requires && required !== source.requires.equals) {
      out.push(
        claimVerdict(
          'source-kind',
          'fail',
          [
            `${label} (${claim.quantity}) cites ${claim.cites}, whose ${source.requires.field} is ${JSON.stringify(required)}, not ${JSON.stringify(source.requires.equals)}: ${source.requires.why}.`,
          ],
          label,
        ),
      );
    } else if (!nameOk || !derivedOk) {
      out.push(
        claimVerdict(
          'source-kind',
          'fail',
          [
            `${label} (${claim.quantity}) cites ${claim.cites}, a "${a.name}" made by ${maker ?? 'an unknown call'}` +
              `${nameOk && !derivedOk ? ` with no ${source.derivedFrom} upstream` : ''}; a ${claim.quantity} must cite ${source.description}.`,
          ],
          label,
        ),
      );
    } else {
      out.push(claimVerdict('source-kind', 'pass', [`${claim.cites} is ${source.description}`], label));
    }
    if (source.production !== false) out.push(...screeningModelCheck(claim, a.id, view, label));
  }

  const path = parseRef(claim.cites)?.path ?? [];
  // the unit of the nearest named field: stressKbar.0.0 is in kbar
  const named = path.filter((p) => !/^\d+$/.test(p));
  const recordedUnit = (named.length ? unitFromName(named[named.length - 1]!) : undefined) ?? a.unit;
  if (typeof r.value !== 'number') {
    out.push(
      claimVerdict(
        'value',
        'fail',
        [`${label} cites ${claim.cites}, which is not a number (${JSON.stringify(r.value)?.slice(0, 80)}): cite the numeric field.`],
        label,
      ),
    );
    return out;
  }
  let recorded = r.value;
  if (recordedUnit && recordedUnit !== claim.unit) {
    if (!sameDimension(recordedUnit as Unit, claim.unit as Unit)) {
      out.push(
        claimVerdict(
          'unit',
          'fail',
          [`${label} states ${claim.unit} but ${claim.cites} is in ${recordedUnit}: the two measure different things.`],
          label,
        ),
      );
      return out;
    }
    recorded = convert(recorded, recordedUnit as Unit, claim.unit as Unit);
  }
  // Rounding to the stated precision, never tighter than floating-point noise (or the artifact's tolerance).
  const tol = Math.max(halfLastDigit(claim.value), allowedDifference(recorded, a.tolerance));
  const trueUnit =
    Math.abs(claim.value - recorded) > tol && recordedUnit
      ? mislabelledUnit(claim.value, claim.unit as Unit, r.value, recordedUnit as Unit)
      : undefined;
  if (trueUnit) {
    // The unit is what is wrong; the value is not judged apart.
    out.push(
      claimVerdict(
        'unit',
        'fail',
        [
          `${label} states ${claim.value} ${claim.unit}, but ${claim.value} is ${claim.cites} in ${trueUnit}: the number is the record, its unit label is wrong ` +
            `(${Number(recorded.toPrecision(8))} ${claim.unit}). State it in ${trueUnit}, or convert it to ${claim.unit}.`,
        ],
        label,
      ),
    );
  } else {
    out.push(claimVerdict('unit', 'pass', [`${claim.unit} agrees with ${recordedUnit ?? 'the record'}`], label));
    if (Math.abs(claim.value - recorded) > tol) {
      out.push(
        claimVerdict(
          'value',
          'fail',
          [
            `${label} states ${claim.value} ${claim.unit} but ${claim.cites} records ${Number(recorded.toPrecision(8))} ${claim.unit}. ` +
              'State the recorded value (rounded as you like) or cite the artifact that holds yours.',
          ],
          label,
        ),
      );
    } else {
      out.push(claimVerdict('value', 'pass', [`${claim.value} ${claim.unit} is ${claim.cites} rounded to the stated precision`], label));
    }
  }
  if (a.status !== 'final') {
    out.push(
      claimVerdict(
        'status',
        'fail',
        [`${label} cites ${a.id}, which is ${a.status}: a provisional or stale value cannot support a claim.`],
        label,
      ),
    );
  }
  return out;
}
