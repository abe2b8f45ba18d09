/** The tier-1 rules by name: a tool lists the names that check its calls. */
import { adsorptionHypothesisValid, RULE as HYPOTHESIS } from './adsorptionHypothesisValid';
import { adsorptionSearchStandards, RULE as STANDARDS } from './adsorptionSearchStandards';
import { calculatorMatchesReferences, RULE as CALCULATOR } from './calculatorMatchesReferences';
import { convergenceChoiceInRange, RULE as CONVERGENCE } from './convergenceChoiceInRange';
import { cutoffAbovePseudopotentialSuggestion, RULE as CUTOFF } from './cutoffAbovePseudopotentialSuggestion';
import { energiesFromProductionInputs, RULE as PRODUCTION } from './energiesFromProductionInputs';
import { eosBracketsMinimum, RULE as EOS } from './eosBracketsMinimum';
import { kmeshMatchesSpacing, RULE as KMESH } from './kmeshMatchesSpacing';
import { latticeUsesCellSymmetry, RULE as LATTICE } from './latticeUsesCellSymmetry';
import { metalsHaveSmearing, RULE as SMEARING } from './metalsHaveSmearing';
import { noProvisionalSupport, RULE as PROVISIONAL } from './noProvisionalSupport';
import { referenceKinds, RULE as KINDS } from './referenceKinds';
import { referencesExist, RULE as EXIST } from './referencesExist';
import { referenceValuesMatch, RULE as VALUES } from './referenceValuesMatch';
import type { TierOneRule } from './ruleInput';
import { dosMeshAtLeastScf, RULE as DOS_MESH } from './dosMeshAtLeastScf';
import { noGapFromMetal, RULE as NO_GAP } from './noGapFromMetal';
import { nscfUsesScfDensity, RULE as NSCF } from './nscfUsesScfDensity';
import { settingsComparable, RULE as SETTINGS } from './settingsComparable';
import { testsRedoneAfterCutoffChange, RULE as REDONE } from './testsRedoneAfterCutoffChange';
import { unitsMatch, RULE as UNITS } from './unitsMatch';
import { relaxationUnderThresholds, RULE as RELAXED } from './relaxationUnderThresholds';
import { magnetizationNeedsSpin, RULE as SPIN } from './magnetizationNeedsSpin';
import { energyFormulaBalanced, RULE as BALANCED } from './energyFormulaBalanced';
import { formationReferencesElemental, RULE as FORMATION } from './formationReferencesElemental';
import { surfaceEnergyBulkMatches, RULE as SURFACE } from './surfaceEnergyBulkMatches';
import { atomsApart, RULE as APART } from './atomsApart';
import { extensionWithinBudget, RULE as EXTENSION } from './extensionWithinBudget';

export const TIER_ONE_RULES: Readonly<Record<string, TierOneRule>> = {
  [EXIST]: referencesExist,
  [VALUES]: referenceValuesMatch,
  [KINDS]: referenceKinds,
  [PROVISIONAL]: noProvisionalSupport,
  [UNITS]: unitsMatch,
  [SETTINGS]: settingsComparable,
  [CONVERGENCE]: convergenceChoiceInRange,
  [CUTOFF]: cutoffAbovePseudopotentialSuggestion,
  [KMESH]: kmeshMatchesSpacing,
  [SMEARING]: metalsHaveSmearing,
  [EOS]: eosBracketsMinimum,
  [LATTICE]: latticeUsesCellSymmetry,
  [REDONE]: testsRedoneAfterCutoffChange,
  [PRODUCTION]: energiesFromProductionInputs,
  [HYPOTHESIS]: adsorptionHypothesisValid,
  [CALCULATOR]: calculatorMatchesReferences,
  [STANDARDS]: adsorptionSearchStandards,
  [NSCF]: nscfUsesScfDensity,
  [DOS_MESH]: dosMeshAtLeastScf,
  [NO_GAP]: noGapFromMetal,
  [RELAXED]: relaxationUnderThresholds,
  [SPIN]: magnetizationNeedsSpin,
  [BALANCED]: energyFormulaBalanced,
  [FORMATION]: formationReferencesElemental,
  [SURFACE]: surfaceEnergyBulkMatches,
  [APART]: atomsApart,
  [EXTENSION]: extensionWithinBudget,
};

/** Rules every call that makes references gets, whatever the tool lists. */
export const REFERENCE_RULES = [EXIST, VALUES, KINDS, PROVISIONAL, UNITS] as const;

export type { RuleInput, TierOneRule } from './ruleInput';
