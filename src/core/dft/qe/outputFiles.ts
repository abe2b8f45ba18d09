/**
 * Reading a pw.x output file with the CRASH file pw.x leaves beside it (in its working
 * directory) when it stops with an error: the error is read from there when the output
 * lacks it (cut short, empty, or written elsewhere).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePwOutput, type ParseOptions, type PwOutput } from './output';

/** The CRASH file in a directory, if pw.x left one there. */
export function readCrashBeside(outputFile: string): string | undefined {
  const crash = path.join(path.dirname(outputFile), 'CRASH');
  try {
    return fs.readFileSync(crash, 'utf8');
  } catch {
    return undefined;
  }
}

/** Parses a pw.x output file (an absent file reads as an empty output) with the CRASH file beside it. */
export function readPwOutputFile(outputFile: string, opts: Omit<ParseOptions, 'crash'> = {}): PwOutput {
  const text = fs.existsSync(outputFile) ? fs.readFileSync(outputFile, 'utf8') : '';
  const crash = readCrashBeside(outputFile);
  return parsePwOutput(text, { ...opts, ...(crash !== undefined ? { crash } : {}) });
}
