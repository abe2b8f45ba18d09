/**
 * The steps of an equation of state at fixed settings, shared by the templates that fit one (the
 * lattice constant's, and the surface energy's bulk): the input, the series that scales its cell by
 * `scales` (lattice-constant factors, eosScaleFactors), a pw.x run of each and the fit of E(V).
 * What differs between the studies is the input (which structure is scaled, at which settings)
 * and the words: the template builds the first and says the second. The step ids are fixed
 * (eos-input, eos-series, eos-runs, eos-fit), so what follows reads `$step.eos-fit.eos_fit`.
 */
import type { TemplateStep } from './types';

export interface EosStepsOf {
  /** The eos-input step: its title, its make_pw_input call (structure and settings) and what it waits for. */
  input: Pick<TemplateStep, 'title' | 'tool' | 'args' | 'reasons' | 'dependsOn'>;
  /** The factors the series scales the lattice constant by. */
  scales: number[];
  /** The equation of state fitted (fit_eos's form). */
  form: string;
  /** Titles: the series' (before ": a × <scales>"), the runs' and the fit's. */
  titles: { series: string; runs: string; fit: string };
  /** Reasons that differ: what the series' template is, why its values, why the form. */
  reasons: { template: string; values: string; form: string };
}

export function eosSteps(o: EosStepsOf): TemplateStep[] {
  const { title, ...call } = o.input;
  return [
    { id: 'eos-input', title, worker: 'dft', ...call },
    {
      id: 'eos-series',
      title: `${o.titles.series}: a × ${o.scales.join(', ')}`,
      worker: 'dft',
      tool: 'generate_series',
      args: { template: '$step.eos-input.pw_input', kind: 'eos', values: o.scales },
      reasons: { template: o.reasons.template, kind: 'an equation-of-state series', values: o.reasons.values },
      dependsOn: ['eos-input'],
    },
    {
      id: 'eos-runs',
      title: o.titles.runs,
      worker: 'hpc',
      tool: 'run_pw',
      // no backend: run_pw runs where the run was started (the user's choice, nothing for a judge to weigh)
      args: { input: '$each.eos-series.pw_input' },
      reasons: { input: 'each input of the EOS series' },
      dependsOn: ['eos-series'],
    },
    {
      id: 'eos-fit',
      title: o.titles.fit,
      worker: 'dft',
      tool: 'fit_eos',
      args: { energies: '$all.eos-runs.total_energy', form: o.form },
      reasons: { energies: 'every energy of the EOS series', form: o.reasons.form },
      dependsOn: ['eos-runs'],
    },
  ];
}
