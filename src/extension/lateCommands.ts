/**
 * Commands registered at activation but answered by the workbench bundle once it has loaded
 * (see workbench.ts): a walkthrough button or a palette entry can be what activates DREAMS,
 * and its command must exist by the time VS Code runs it.
 */
export const LATE_COMMANDS = [
  'dreams.showLog',
  'dreams.testClusterConnection',
  'dreams.addClusterProfile',
  'dreams.checkPw',
  'dreams.choosePseudoDir',
  'dreams.useOffline',
  'dreams.openDemoCanvas',
  'dreams.openWalkthrough',
] as const;

export type LateCommand = (typeof LATE_COMMANDS)[number];
