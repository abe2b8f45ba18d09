/** Quantum ESPRESSO pw.x input and output: the one entry point for other modules. */
export * from './input';
export * from './output';
export * from './validate';
export * from './definitions';
export * from './detect';
export * from './upf';
export { functionalName } from './functional';
export {
  physicalSettingsOf,
  settingsDifferences,
  CONV_THR_TOLERANCE_RY,
  SettingsError,
  type NamedDifference,
  type SettingsOptions,
} from './settings';
export * from './series';
export * from './language';
