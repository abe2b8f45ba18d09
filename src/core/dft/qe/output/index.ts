/** pw.x output: the batch parser and the live progress parser. */
export * from './types';
export { parsePwOutput, type ParseOptions } from './parse';
export { readCrash, type CrashReport } from './failure';
export { PwProgressParser, type PwProgress, type PwProgressEvent } from './progress';
export { parseQeDuration } from './qeTime';
export { pwBannerVersion } from './reader';
