/**
 * The lattice-constant report: its text and one claim per number, each citing the
 * artifact the number comes from, composed from the run's artifacts (the offline
 * provider's report; a model writes its own and is held to the same claims).
 */
import type { ComposeContextOf, ComposerOf } from './defineWorkflow';
import { claimValue } from '../guard/claimChecks';
import { finestTested, type ConvergenceSelectionValue } from '../artifacts/shapes';
import { latticeShiftFromPressure } from '../dft/convergence';
import { round, type LatticeConstantInputs } from './latticeConstantInputs';
import { cellMethodSentence, crystalName } from './latticeConstantCrystal';
import { studyObjective } from './latticeConstantStudy';
import type { LatticeParametersValue } from '../artifacts/shapes';
import { bulkModulusSource, type BulkModulusSource } from '../artifacts/bulkModulusSource';

type NumbersOfSweep = { sweep: ConvergenceSelectionValue; bulk?: BulkModulusSource };

interface ReportNumbers {
  a: { ref: string; value: number };
  /** The full lattice parameters (runs made before they existed have none). */
  lp?: { ref: string; value: LatticeParametersValue };
  fit: { ref: string; v0: number; b0: number; b0Prime: number; form: string; natoms: number };
  cut: { ref: string; ecutwfc: number; ecutrho?: number; sweep: ConvergenceSelectionValue; bulk?: BulkModulusSource };
  k: { ref: string; spacing: number; sweep: ConvergenceSelectionValue; bulk?: BulkModulusSource };
}

/** How one sweep was judged, as its selection records it (a selection made before criteria had names was judged by energy). */
interface SweepJudgedBy {
  kind: NonNullable<ConvergenceSelectionValue['criterion']>['kind'];
  toleranceMevPerAtom?: number;
  toleranceLatticePercent?: number;
  bulkModulusGPa?: number;
  /** Where B came from: a probe of strained cells (this sweep's, or another's handed on), or given (with the reference it was taken from). */
  bulkFrom?: 'probe' | 'given';
  givenRef?: string;
}

function judgedBy(s: ConvergenceSelectionValue, bulk?: BulkModulusSource): SweepJudgedBy {
  const c = s.criterion;
  const mev = c?.toleranceMevPerAtom ?? s.toleranceMevPerAtom;
  return {
    kind: c?.kind ?? 'energy',
    ...(mev !== undefined ? { toleranceMevPerAtom: mev } : {}),
    ...(c?.toleranceLatticePercent !== undefined ? { toleranceLatticePercent: c.toleranceLatticePercent } : {}),
    ...(c?.bulkModulusGPa !== undefined ? { bulkModulusGPa: c.bulkModulusGPa } : {}),
    ...(bulk ? { bulkFrom: bulk.from === 'given' ? ('given' as const) : ('probe' as const) } : {}),
    ...(bulk?.from === 'given' && bulk.ref !== undefined ? { givenRef: bulk.ref } : {}),
  };
}

/** A sweep's tolerance, said (a tolerance its selection did not record is said to be unrecorded, not taken from the inputs). */
function toleranceSaid(j: SweepJudgedBy): string {
  const mev = `${j.toleranceMevPerAtom ?? '(unrecorded)'} meV/atom`;
  const lat = `${j.toleranceLatticePercent ?? '(unrecorded)'} % of a`;
  return j.kind === 'energy'
    ? mev
    : j.kind === 'pressure'
      ? `${lat} (from the pressure against the finest run)`
      : `${mev} and ${lat} (from the pressure)`;
}

/** The tolerance the settings were chosen within, from both selections: one phrase when they agree, each sweep's when they differ. */
function withinSaid(n: ReportNumbers): string {
  const cut = toleranceSaid(judgedBy(n.cut.sweep));
  const k = toleranceSaid(judgedBy(n.k.sweep));
  return cut === k ? cut : `${cut} (cutoff) and ${k} (k-spacing)`;
}

const bulkSaid = (j: SweepJudgedBy): string =>
  `B ≈ ${claimValue(j.bulkModulusGPa ?? NaN, 1)} GPa${j.bulkFrom === 'probe' ? ' from the probe' : j.bulkFrom === 'given' ? (j.givenRef ? ` taken from ${j.givenRef}` : ' as given') : ''}`;

/**
 * How the sweeps in the pressure check were chosen, from their selections: on this shift (with which B, and
 * where it came from: a B handed on from the other sweep's probe is the probe's) or by energy.
 */
function howChosen(sweeps: (readonly [string, NumbersOfSweep])[]): string {
  const judged = sweeps.map(([what, s]) => ({ what, j: judgedBy(s.sweep, s.bulk) }));
  const onShift = judged.filter((x) => x.j.kind !== 'energy');
  const byEnergy = judged.filter((x) => x.j.kind === 'energy');
  const estimate = 'this estimates how far the choice moves the lattice constant; it is not how it was chosen';
  if (!onShift.length)
    return `This estimates how far ${sweeps.length > 1 ? 'each choice moves' : 'the choice moves'} the lattice constant; it is not how ${sweeps.length > 1 ? 'they were' : 'it was'} chosen.`;
  const bulks = [...new Set(onShift.map((x) => bulkSaid(x.j)))];
  const chosenOn =
    onShift.length === judged.length && bulks.length === 1
      ? `The ${judged.length > 1 ? 'sweeps were' : `${onShift[0]!.what} was`} chosen on this shift with ${bulks[0]}`
      : `${onShift.map((x, i) => `${i ? 'the' : 'The'} ${x.what} was chosen on this shift with ${bulkSaid(x.j)}`).join(', ')}`;
  return (
    `${chosenOn}; here it is recomputed with the fitted B0.` +
    (byEnergy.length ? ` The ${byEnergy.map((x) => x.what).join(' and ')} was chosen by energy alone: for it, ${estimate}.` : '')
  );
}

/** The pressure check of both sweeps with the fitted B0, as one sentence; empty when the runs printed no pressure. */
function pressureCheck(n: ReportNumbers): string {
  const checked = (
    [
      ['cutoff', n.cut],
      ['k-spacing', n.k],
    ] as const
  ).flatMap(([what, s]) => {
    const shift = latticeShiftFromPressure(s.sweep.tested, s.sweep.chosenValue, finestTested(s.sweep), n.fit.b0);
    return shift
      ? [
          {
            sweep: [what, s] as const,
            said: `at the chosen ${what} the pressure is ${round(shift.chosenKbar, 2)} kbar against ${round(shift.finestKbar, 2)} kbar at the finest (ΔP = ${round(shift.deltaKbar, 2)} kbar, |ΔP|/3B0 = ${claimValue(shift.shiftPercent, 2)} % of a)`,
          },
        ]
      : [];
  });
  return checked.length
    ? `Pressure check of the convergence choices (same cell, from the sweeps' own runs): ${checked.map((c) => c.said).join('; ')}. ` +
        howChosen(checked.map((c) => c.sweep))
    : '';
}

/**
 * The c/a tolerance the sweeps were held to, as their selections record it: a run planned before
 * the shape criterion existed (resumed with its recorded plan), or a choice replanned without the
 * argument, applied none, and the report says so rather than what the inputs would plan today.
 */
function shapeWithin(n: ReportNumbers, i: LatticeConstantInputs): string {
  const cut = n.cut.sweep.criterion?.toleranceShapePercent;
  const k = n.k.sweep.criterion?.toleranceShapePercent;
  if (cut === undefined && k === undefined)
    return i.cellMethod === 'vc-relax' ? ' (neither sweep judged c/a: no shape tolerance in their choices)' : '';
  // The c/a tolerance is exact only at the shape modulus the choice used; B/2 (the default) understates it for a softer shape.
  const applied = cut !== undefined ? n.cut.sweep.criterion! : n.k.sweep.criterion!;
  const c = applied.shapeModulusGPa;
  const half =
    c !== undefined && applied.bulkModulusGPa !== undefined && Math.abs(c - applied.bulkModulusGPa / 2) <= 1e-6 * applied.bulkModulusGPa;
  const how =
    c === undefined
      ? '(from the deviatoric stress)'
      : `(from the deviatoric stress; nominal at a shape modulus C ≈ ${claimValue(c, 1)} GPa${half ? ', B/2: a crystal whose shape is softer than that, such as hcp Zn or Cd at about 0.4 B, may be off in c/a by up to about 1.35× the tolerance' : ''})`;
  if (cut === k) return ` and ${cut} % of c/a ${how}`;
  if (cut === undefined || k === undefined)
    return ` and ${cut ?? k} % of c/a ${how} in the ${cut === undefined ? 'k-spacing' : 'cutoff'} sweep only`;
  return ` and ${cut} % (cutoff) and ${k} % (k-spacing) of c/a ${how}`;
}

function reportNumbers(ctx: ComposeContextOf<LatticeConstantInputs>): ReportNumbers {
  // where each sweep's B came from, as its selection records it; a selection recorded before the
  // reference of a given B was kept is taken to be handed on when the other sweep read the same B from its probe
  const bulkOf = (s: ConvergenceSelectionValue, other: string[]) => {
    const bulk = bulkModulusSource(s, (id) => ctx.value(id), other);
    return bulk ? { bulk } : {};
  };
  const need = (step: string, name: string): string => {
    const r = ctx.ref(step, name);
    if (!r) throw new Error(`the report needs the ${name} of step ${step}, which the run has not made yet; run that step first.`);
    return r;
  };
  const a = need('lattice', 'lattice_constant');
  const fit = need('eos-fit', 'eos_fit');
  const cut = need('cutoff-choice', 'converged_settings');
  const k = need('k-choice', 'converged_settings');
  const fitValue = ctx.value(fit) as { v0Angstrom3: number; b0GPa: number; b0Prime: number; form: string; natoms: number };
  const cutValue = ctx.value(cut) as ConvergenceSelectionValue & { chosen: { ecutwfcRy: number; ecutrhoRy?: number } };
  const kValue = ctx.value(k) as ConvergenceSelectionValue & { chosen: { kSpacingPerAngstrom: number } };
  const lp = ctx.ref('lattice', 'lattice_parameters');
  return {
    a: { ref: a, value: ctx.value(a) as number },
    ...(lp ? { lp: { ref: lp, value: ctx.value(lp) as LatticeParametersValue } } : {}),
    fit: {
      ref: fit,
      v0: fitValue.v0Angstrom3,
      b0: fitValue.b0GPa,
      b0Prime: fitValue.b0Prime,
      form: fitValue.form,
      natoms: fitValue.natoms,
    },
    cut: {
      ref: cut,
      ecutwfc: cutValue.chosen.ecutwfcRy,
      ...(cutValue.chosen.ecutrhoRy !== undefined ? { ecutrho: cutValue.chosen.ecutrhoRy } : {}),
      sweep: cutValue,
      ...bulkOf(cutValue, [k]),
    },
    k: { ref: k, spacing: kValue.chosen.kSpacingPerAngstrom, sweep: kValue, ...bulkOf(kValue, [cut]) },
  };
}

/** The k-meshes of the EOS energies, said: one mesh for every volume (a mesh that changed with the cell would put jumps into E(V)). */
function eosMeshes(ctx: ComposeContextOf<LatticeConstantInputs>): string {
  const meshes = [
    ...new Set(
      ctx.refs('eos-runs', 'total_energy').map((r) => {
        const m = (ctx.provenance.artifact(r)?.meta as { settings?: { kMesh?: number[] } } | undefined)?.settings?.kMesh;
        return m ? m.join('×') : '?';
      }),
    ),
  ];
  if (meshes.length === 1) return meshes[0] === '?' ? 'at one k-spacing' : `with one k-mesh, ${meshes[0]}, at every volume`;
  return `with k-meshes ${meshes.join(', ')} across the volumes (not one mesh: the fit mixes k errors)`;
}

/**
 * The crystal of a structure file, said: the file's own cell (atoms, group), the cell computed on
 * (its standardised primitive cell, or the cell as given) with the fit's atom count, so "8 atoms"
 * and "V0 per 2-atom cell" read together.
 */
function structureSentence(i: LatticeConstantInputs, fitAtoms: number): string {
  const c = i.crystal!;
  const src = c.source!;
  const computedOn =
    i.cell === 'as-given'
      ? `computed on the cell as the file gives it (${fitAtoms} atoms)`
      : fitAtoms === c.natoms
        ? `computed on its standardised primitive cell (also ${fitAtoms} atoms)`
        : `computed on its standardised ${fitAtoms}-atom primitive cell (the same crystal)`;
  return `Structure: ${src.name} (${src.format}, sha256 ${src.sha256}): the file's ${c.natoms}-atom cell, ${c.spaceGroup}, ${computedOn}.`;
}

/**
 * The result against the input structure's own lattice parameters (a, and c/a for a non-cubic
 * crystal, of the file's standardised conventional cell): the first thing one asks of a study
 * that started from a measured or published cell.
 */
function againstFile(i: LatticeConstantInputs, n: ReportNumbers): string {
  const c = i.crystal!;
  const a = n.lp?.value.aAngstrom ?? n.a.value;
  const pct = (x: number, ref: number) => `${x >= ref ? '+' : '−'}${round(Math.abs(100 * (x / ref - 1)), 2)} %`;
  const shape =
    n.lp && !n.lp.value.cubic
      ? `; c/a = ${round(n.lp.value.cOverA, 4)} against the file's ${round(c.cOverA, 4)} (${pct(n.lp.value.cOverA, c.cOverA)})`
      : '';
  return (
    `Against the input structure: ${c.source!.name} has a = ${round(c.aAngstrom, 4)} Å (its standardised conventional cell); the ${i.functional} a = ${round(a, 4)} Å is ` +
    `${pct(a, c.aAngstrom)} from it (Δa = ${a >= c.aAngstrom ? '+' : '−'}${round(Math.abs(a - c.aAngstrom), 4)} Å)${shape}.`
  );
}

export const LATTICE_REPORT_COMPOSERS: Record<string, ComposerOf<LatticeConstantInputs>> = {
  title: (ctx) => `${studyObjective(ctx.inputs)}`,
  text: (ctx) => {
    const n = reportNumbers(ctx);
    const i = ctx.inputs;
    const pressure = pressureCheck(n);
    const within = withinSaid(n) + shapeWithin(n, i);
    const name = i.crystal ? crystalName(i.crystal, String(i.structure)) : `${String(i.structure)} ${i.element}`;
    const lp = n.lp?.value;
    const headline =
      lp && !lp.cubic
        ? `The ${i.functional} lattice parameters of ${name} are **a = ${round(lp.aAngstrom, 4)} Å, c = ${round(lp.cAngstrom, 4)} Å, c/a = ${round(lp.cOverA, 4)}** ` +
          `(${n.a.ref}, ${n.lp!.ref}), with V = ${round(lp.conventionalVolumeAngstrom3, 4)} Å³ per conventional ${lp.spaceGroup.symbol} cell`
        : `The ${i.functional} lattice constant of ${name} is **a = ${round(n.a.value, 4)} Å** (${n.a.ref})`;
    const method = i.crystal ? cellMethodSentence(i.cellMethod ?? 'isotropic', i.crystal) : '';
    const eosAround =
      i.cellMethod === 'vc-relax'
        ? 'the relaxed cell'
        : i.crystal?.source
          ? `the cell of ${i.crystal.source.name}`
          : `the starting lattice constant ${i.latticeConstantAngstrom} Å`;
    return [
      `${headline}, from a ${n.fit.form} fit (${n.fit.ref}) with V0 = ${round(n.fit.v0, 4)} Å³ per ${n.fit.natoms}-atom cell, ` +
        `B0 = ${claimValue(n.fit.b0, 1)} GPa and B0' = ${round(n.fit.b0Prime, 2)}.` +
        (lp ? ` ${lp.relation}.` : ''),
      ...(method ? ['', `Method: ${method}`] : []),
      ...(i.crystal?.source ? ['', structureSentence(i, n.fit.natoms), againstFile(i, n)] : []),
      '',
      `Settings chosen by convergence tests within ${within}: ecutwfc = ${n.cut.ecutwfc} Ry` +
        `${n.cut.ecutrho !== undefined ? ` (ecutrho ${n.cut.ecutrho} Ry)` : ''} (${n.cut.ref}), k-spacing ${n.k.spacing} 1/Å (${n.k.ref}); ` +
        `${i.smearing.kind} smearing ${i.smearing.degaussRy} Ry${i.spinPolarized ? ', spin-polarized' : ''}.`,
      ...(pressure ? ['', pressure] : []),
      '',
      `The EOS series scales the lattice by ±${i.eos.rangePercent} % around ${eosAround}, in ${i.eos.points} points, ${eosMeshes(ctx)}.`,
    ].join('\n');
  },
  claims: (ctx) => {
    const n = reportNumbers(ctx);
    return [
      {
        quantity: 'lattice_constant',
        value: claimValue(n.a.value, 4),
        unit: 'Å',
        cites: n.a.ref,
        statement: `a = ${claimValue(n.a.value, 4)} Å`,
      },
      ...(n.lp && !n.lp.value.cubic
        ? [
            {
              quantity: 'lattice_parameters',
              value: claimValue(n.lp.value.cAngstrom, 4),
              unit: 'Å',
              cites: `${n.lp.ref}.cAngstrom`,
              statement: `c = ${claimValue(n.lp.value.cAngstrom, 4)} Å`,
            },
            {
              quantity: 'lattice_parameters',
              value: claimValue(n.lp.value.cOverA, 4),
              unit: '1',
              cites: `${n.lp.ref}.cOverA`,
              statement: `c/a = ${claimValue(n.lp.value.cOverA, 4)}`,
            },
            {
              quantity: 'lattice_parameters',
              value: claimValue(n.lp.value.conventionalVolumeAngstrom3, 4),
              unit: 'Å^3',
              cites: `${n.lp.ref}.conventionalVolumeAngstrom3`,
              statement: `V = ${claimValue(n.lp.value.conventionalVolumeAngstrom3, 4)} Å³ per conventional cell`,
            },
          ]
        : []),
      {
        quantity: 'bulk_modulus',
        value: claimValue(n.fit.b0, 1),
        unit: 'GPa',
        cites: `${n.fit.ref}.b0GPa`,
        statement: `B0 = ${claimValue(n.fit.b0, 1)} GPa`,
      },
      {
        quantity: 'equilibrium_volume',
        value: claimValue(n.fit.v0, 4),
        unit: 'Å^3',
        cites: `${n.fit.ref}.v0Angstrom3`,
        statement: `V0 = ${claimValue(n.fit.v0, 4)} Å³`,
      },
      {
        quantity: 'converged_cutoff',
        value: n.cut.ecutwfc,
        unit: 'Ry',
        cites: `${n.cut.ref}.chosen.ecutwfcRy`,
        statement: `ecutwfc = ${n.cut.ecutwfc} Ry`,
      },
      {
        quantity: 'converged_kspacing',
        value: n.k.spacing,
        unit: '1/Å',
        cites: `${n.k.ref}.chosen.kSpacingPerAngstrom`,
        statement: `k-spacing = ${n.k.spacing} 1/Å`,
      },
    ];
  },
};
