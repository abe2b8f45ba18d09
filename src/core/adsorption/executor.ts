/**
 * Turning a validated hypothesis into one relaxed configuration: place the adsorbate on
 * each candidate site (up to 8) in 4 azimuths, screen the placements by single-point
 * energy, and relax only the lowest. The relaxation goes through an injected function so
 * a host can route it through a guarded tool call; the default relaxes with FIRE on the
 * calculator directly.
 */
import type { Calculator } from '../calculators/types';
import { DEFAULT_RELAX, relaxWithFire } from '../calculators/optimizers/fire';
import type { RelaxResult } from '../calculators/types';
import type { Structure } from '../dft/types';
import type { Adsorbate } from './adsorbate';
import type { Hypothesis } from './hypothesis';
import { placeOnSite, type PlacedConfiguration } from './placement';
import type { AdsorptionSite } from './sites';
import type { StandardisedSlab } from './slab';

export const SCREEN_AZIMUTHS_DEG = [0, 90, 180, 270] as const;

export type RelaxPurpose = 'configuration' | 'clean-slab' | 'gas-phase';

export interface RelaxRequest {
  structure: Structure;
  purpose: RelaxPurpose;
  /** Human-readable: "iteration 3: hollow [4, 5, 8]". */
  label: string;
  fmaxEvPerAngstrom: number;
  maxSteps: number;
}

/** Relax one structure; hosts replace this to run it as a guarded, recorded tool call. */
export type RelaxFunction = (req: RelaxRequest, signal?: AbortSignal) => Promise<RelaxResult>;

/** The calculator's own relaxation when it has one (pw.x BFGS), FIRE over calculate() otherwise. */
export function directRelax(calculator: Calculator): RelaxFunction {
  return (req, signal) =>
    calculator.relax
      ? calculator.relax(req.structure, { fmaxEvPerAngstrom: req.fmaxEvPerAngstrom, maxSteps: req.maxSteps, signal })
      : relaxWithFire(calculator, req.structure, { fmaxEvPerAngstrom: req.fmaxEvPerAngstrom, maxSteps: req.maxSteps, signal });
}

export interface ScreenedPlacement {
  siteId: string;
  azimuthDeg: number;
  energyEv: number;
}

export interface ExecutionResult {
  placed: PlacedConfiguration;
  screening: ScreenedPlacement[];
  relaxation: RelaxResult;
}

export interface ExecutionRequest {
  hypothesis: Hypothesis;
  sites: AdsorptionSite[];
  slab: StandardisedSlab;
  adsorbate: Adsorbate;
  label: string;
}

/** Screen-then-relax for one hypothesis. */
export interface ConfigurationExecutor {
  execute(req: ExecutionRequest, signal?: AbortSignal): Promise<ExecutionResult>;
  /** Relax a reference structure (clean slab, gas-phase adsorbate) the same way. */
  relaxReference(structure: Structure, purpose: RelaxPurpose, label: string, signal?: AbortSignal): Promise<RelaxResult>;
}

export interface ExecutorOptions {
  fmaxEvPerAngstrom?: number;
  maxSteps?: number;
  /** Defaults to FIRE on the calculator. */
  relax?: RelaxFunction;
  /**
   * Candidate sites screened per hypothesis (default: all the validator supplies, at most 8).
   * With a DFT calculator each screened placement is an SCF, so a study may screen fewer.
   */
  maxSites?: number;
  /** Azimuths screened per site, degrees (default 0, 90, 180, 270). */
  azimuthsDeg?: readonly number[];
}

export class ScreenAndRelaxExecutor implements ConfigurationExecutor {
  readonly fmaxEvPerAngstrom: number;
  readonly maxSteps: number;
  private readonly relax: RelaxFunction;
  private readonly maxSites: number;
  private readonly azimuthsDeg: readonly number[];
  /** Single-point evaluations spent on screening so far. */
  singlePoints = 0;

  constructor(
    readonly calculator: Calculator,
    opts: ExecutorOptions = {},
  ) {
    this.fmaxEvPerAngstrom = opts.fmaxEvPerAngstrom ?? DEFAULT_RELAX.fmaxEvPerAngstrom;
    this.maxSteps = opts.maxSteps ?? DEFAULT_RELAX.maxSteps;
    this.relax = opts.relax ?? directRelax(calculator);
    this.maxSites = opts.maxSites ?? Infinity;
    this.azimuthsDeg = opts.azimuthsDeg ?? SCREEN_AZIMUTHS_DEG;
  }

  /** Place on each site in each azimuth and evaluate single points; returns the lowest placement. */
  async screen(
    req: Omit<ExecutionRequest, 'label'>,
    signal?: AbortSignal,
  ): Promise<{ placed: PlacedConfiguration; screening: ScreenedPlacement[] }> {
    let best: PlacedConfiguration | undefined;
    let bestEnergy = Infinity;
    const screening: ScreenedPlacement[] = [];
    for (const site of req.sites.slice(0, this.maxSites)) {
      for (const azimuthDeg of this.azimuthsDeg) {
        const placed = placeOnSite({
          slab: req.slab.slab,
          frame: req.slab.frame,
          site,
          adsorbate: req.adsorbate,
          bindingAtoms: req.hypothesis.bindingAtoms,
          orientation: req.hypothesis.orientation,
          azimuthDeg,
        });
        const { energyEv } = await this.calculator.calculate(placed.structure, { signal });
        this.singlePoints++;
        screening.push({ siteId: site.id, azimuthDeg, energyEv });
        if (energyEv < bestEnergy - 1e-9) {
          best = placed;
          bestEnergy = energyEv;
        }
        // A single atom looks the same at every azimuth.
        if (req.adsorbate.symbols.length === 1) break;
      }
    }
    if (!best)
      throw new Error(
        `no candidate site to screen for ${req.hypothesis.siteType} [${req.hypothesis.surfaceAtoms.join(', ')}]; the validator should have supplied at least one.`,
      );
    return { placed: best, screening };
  }

  async execute(req: ExecutionRequest, signal?: AbortSignal): Promise<ExecutionResult> {
    const { placed, screening } = await this.screen(req, signal);
    const relaxation = await this.relax(
      {
        structure: placed.structure,
        purpose: 'configuration',
        label: req.label,
        fmaxEvPerAngstrom: this.fmaxEvPerAngstrom,
        maxSteps: this.maxSteps,
      },
      signal,
    );
    return { placed, screening, relaxation };
  }

  relaxReference(structure: Structure, purpose: RelaxPurpose, label: string, signal?: AbortSignal): Promise<RelaxResult> {
    return this.relax({ structure, purpose, label, fmaxEvPerAngstrom: this.fmaxEvPerAngstrom, maxSteps: this.maxSteps }, signal);
  }

  /** A site screen for the offline planner: the lowest unrelaxed upright placement on one site, eV. */
  siteScreen(slab: StandardisedSlab, adsorbate: Adsorbate): (site: AdsorptionSite, bindingAtom: number) => Promise<number> {
    return async (site, bindingAtom) => {
      const hypothesis: Hypothesis = {
        action: 'propose',
        siteType: site.kind,
        surfaceAtoms: site.surfaceAtoms,
        bindingAtoms: [bindingAtom],
        orientation: 'upright',
      };
      const { screening } = await this.screen({ hypothesis, sites: [site], slab, adsorbate });
      return Math.min(...screening.map((x) => x.energyEv));
    };
  }
}
