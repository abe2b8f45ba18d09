/**
 * The lattice-constant steps inside another study: the same template (cutoff sweep,
 * k sweep, EOS, lattice constant), its step ids prefixed so they cannot clash, its hints
 * rewritten to the prefixed ids, and its report left out (the enclosing study reports).
 */
import { latticeConstantSteps } from '../latticeConstant';
import { resolveStudyInputs } from '../latticeConstantStudy';
import type { TemplateStep } from '../types';

const HINT = /^\$(step|all|each)\.([a-z0-9][a-z0-9-]*)\./;

function prefixHints(value: unknown, prefix: string): unknown {
  if (typeof value === 'string') return value.replace(HINT, (_m, kind: string, step: string) => `$${kind}.${prefix}${step}.`);
  if (Array.isArray(value)) return value.map((v) => prefixHints(v, prefix));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prefixHints(v, prefix)]));
  return value;
}

export function prefixedSteps(steps: TemplateStep[], prefix: string, titlePrefix: string): TemplateStep[] {
  return steps.map((s) => ({
    ...s,
    id: `${prefix}${s.id}`,
    title: `${titlePrefix}${s.title}`,
    ...(s.args ? { args: prefixHints(s.args, prefix) as Record<string, unknown> } : {}),
    ...(s.dependsOn ? { dependsOn: s.dependsOn.map((d) => `${prefix}${d}`) } : {}),
  }));
}

export interface BulkStudy {
  element: string;
  structure: 'fcc' | 'bcc' | 'hcp';
  startingLatticeConstantAngstrom: number;
  functional: 'PBE' | 'PZ' | 'PBEsol';
  pseudopotential?: string;
  cutoffsRy: number[];
  dual: number;
  kSpacingsPerAngstrom?: number[];
  toleranceMevPerAtom: number;
  smearing: { kind: 'mv' | 'mp' | 'gaussian' | 'fd'; degaussRy: number };
}

export const BULK_PREFIX = 'bulk-';

/** The bulk lattice-constant steps (without their report), prefixed with "bulk-". */
export function bulkLatticeSteps(b: BulkStudy): TemplateStep[] {
  const inputs = resolveStudyInputs(
    {
      element: b.element,
      structure: b.structure,
      latticeConstantAngstrom: b.startingLatticeConstantAngstrom,
      functional: b.functional,
      ...(b.pseudopotential ? { pseudopotential: b.pseudopotential } : {}),
      cutoffsRy: b.cutoffsRy,
      dual: b.dual,
      toleranceMevPerAtom: b.toleranceMevPerAtom,
      ...(b.kSpacingsPerAngstrom ? { kSpacingsPerAngstrom: b.kSpacingsPerAngstrom } : {}),
      smearing: b.smearing,
      spinPolarized: false,
    },
    {},
  );
  const steps = latticeConstantSteps(inputs).filter((s) => s.tool !== 'write_report');
  return prefixedSteps(steps, BULK_PREFIX, 'Bulk: ');
}

/** Hints to the bulk study's results, for the steps that use them. */
export const BULK_RESULT = {
  latticeConstant: `$step.${BULK_PREFIX}lattice.lattice_constant`,
  ecutwfcRy: `$step.${BULK_PREFIX}cutoff-choice.converged_settings.chosen.ecutwfcRy`,
  ecutrhoRy: `$step.${BULK_PREFIX}cutoff-choice.converged_settings.chosen.ecutrhoRy`,
  kSpacingPerAngstrom: `$step.${BULK_PREFIX}k-choice.converged_settings.chosen.kSpacingPerAngstrom`,
  lastStep: `${BULK_PREFIX}lattice`,
  settingsStep: `${BULK_PREFIX}k-choice`,
} as const;
