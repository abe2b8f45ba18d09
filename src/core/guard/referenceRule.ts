/**
 * The reference rule as a model is told it: stated here once, used by the workers' system
 * prompt and by the `references` field of every tool definition, and enforced by
 * assessCall.normaliseReferences and the reference rules (rules/referenceValuesMatch.ts).
 */

/** For a system prompt: how a value taken from an artifact is written. */
export const REFERENCE_RULE = `Artifacts are the run's recorded values ("a-12"). A value you take from an artifact is given by its reference, "a-<n>" or
  "a-<n>.<path>" (e.g. "a-12.chosen.ecutwfcRy"): in "references" under the argument's name (then leave the argument out or give
  the recorded value: the guard fills it in or checks it), or as the argument's value, or both with the same reference. Arguments
  that take an artifact itself (structure, input, energies, template) hold its reference as their value; repeating it in
  "references" is allowed. Never type a number you read from an artifact without its reference; a value of your own has no
  reference, only its reason.`;

/** The description of the `references` field in every tool definition: it names the rule, which the system prompt states once. */
export const REFERENCES_FIELD = 'Argument name → "a-<n>[.<path>]", as the reference rule says.';
