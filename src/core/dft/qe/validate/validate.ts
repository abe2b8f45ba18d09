/**
 * Validation of a pw.x input against QE's own definitions for the version that will
 * run it, plus the cross-variable rules pw.x enforces or documents. Never throws.
 */
import { DEFAULT_QE_VERSION, QE_VERSIONS, qeDefinitions, type QeVersion } from '../definitions';
import { qeVersionFromComment } from '../detect';
import { readAtomicSpecies } from '../input/cards';
import type { PwInput } from '../input/model';
import { parsePwInput } from '../input/parse';
import type { UpfHeader } from '../upf';
import { checkCards } from './cardRules';
import type { PseudoInfo, ValidationContext } from './context';
import { SEVERITY_ORDER, type Diagnostic, type Severity } from './diagnostic';
import { checkNamelists } from './namelistRules';
import { checkPhysics } from './physicsRules';
import { checkPseudopotentials } from './pseudoRules';

export interface ValidateOptions {
  /** The QE version that will run the input; else a "! qe-version: X" comment; else 7.2. */
  qeVersion?: QeVersion;
  /**
   * Pseudopotential headers by file name as written in ATOMIC_SPECIES (read them with
   * upfHeadersForInput). A file mapped to { error } is reported as unreadable. Without
   * this, the rules that need the headers are skipped.
   */
  upfHeaders?: Record<string, UpfHeader | { error: string }>;
}

export interface ValidationResult {
  qeVersion: QeVersion;
  /** Where the version came from. */
  versionSource: 'option' | 'comment' | 'default';
  diagnostics: Diagnostic[];
  errorCount: number;
  warningCount: number;
}

const SYNTAX_SEVERITY: Record<string, Severity> = {
  'stray-text': 'warning',
  'text-after-end': 'warning',
  'card-header-extra': 'warning',
};

function pseudosOf(input: PwInput, headers: ValidateOptions['upfHeaders']): PseudoInfo[] | undefined {
  if (!headers) return undefined;
  return (readAtomicSpecies(input)?.value ?? []).map((s) => {
    const h = headers[s.pseudopotential];
    const info: PseudoInfo = { label: s.label, file: s.pseudopotential };
    if (h === undefined) info.problem = `no header was read for ${s.pseudopotential}; check the pseudopotential directory.`;
    else if ('error' in h) info.problem = h.error;
    else info.header = h;
    return info;
  });
}

export function validatePwInput(source: string | PwInput, options: ValidateOptions = {}): ValidationResult {
  const input = typeof source === 'string' ? parsePwInput(source) : source;
  let version: QeVersion = DEFAULT_QE_VERSION;
  let versionSource: ValidationResult['versionSource'] = 'default';
  if (options.qeVersion) {
    version = options.qeVersion;
    versionSource = 'option';
  } else {
    const mark = qeVersionFromComment(input.comments.map((c) => c.text).join('\n'));
    if (mark) {
      version = mark.version;
      versionSource = 'comment';
    }
  }
  const diagnostics: Diagnostic[] = input.problems.map((p) => ({
    code: p.code,
    severity: SYNTAX_SEVERITY[p.code] ?? 'error',
    message: p.message,
    range: p.range,
  }));
  const ctx: ValidationContext = {
    input,
    version,
    defs: qeDefinitions(version),
    otherDefs: QE_VERSIONS.filter((v) => v !== version).map(qeDefinitions),
    report: (d) => diagnostics.push(d),
  };
  const pseudos = pseudosOf(input, options.upfHeaders);
  if (pseudos) ctx.pseudos = pseudos;
  for (const rule of [checkNamelists, checkCards, checkPhysics, checkPseudopotentials]) {
    try {
      rule(ctx);
    } catch (e) {
      // A rule tripping over a malformed input must not hide the other diagnostics.
      diagnostics.push({
        code: 'validator-internal',
        severity: 'warning',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        message: `a validation rule (${rule.name}) could not finish on this input: ${(e as Error).message}. The other diagnostics stand; please report this input.`,
      });
    }
  }
  diagnostics.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return {
    qeVersion: version,
    versionSource,
    diagnostics,
    errorCount: diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: diagnostics.filter((d) => d.severity === 'warning').length,
  };
}
