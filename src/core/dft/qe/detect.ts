/**
 * Recognising a pw.x input and the QE version it is written for. A file is a pw.x
 * input when its first non-blank, non-comment line opens &CONTROL or &SYSTEM; the
 * version comes from a comment such as "! qe-version: 7.2" (or the caller's setting).
 */
import { definitionsVersionFor, type QeVersion } from './definitions';

export function isPwInput(text: string): boolean {
  for (const line of text.split(/\r\n|\n|\r/, 200)) {
    const t = line.trim();
    if (t === '' || t.startsWith('!') || t.startsWith('#')) continue;
    return /^&(control|system)\b/i.test(t);
  }
  return false;
}

export interface VersionMark {
  version: QeVersion;
  /** As written in the comment. */
  written: string;
  line: number;
}

/** The version a "qe-version" comment names, mapped to the definitions that fit it. */
export function qeVersionFromComment(text: string): VersionMark | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*[!#].*?\bqe[-_ ]?version\s*[:=]?\s*v?([\w.]+)/i.exec(lines[i]!);
    if (m) {
      const version = definitionsVersionFor(m[1]!);
      if (version) return { version, written: m[1]!, line: i };
    }
  }
  return undefined;
}
