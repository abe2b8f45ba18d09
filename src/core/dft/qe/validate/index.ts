export * from './diagnostic';
export { validatePwInput, type ValidateOptions, type ValidationResult } from './validate';
export { USPP_MIN_DUAL } from './pseudoRules';
