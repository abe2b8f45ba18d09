/**
 * Validates every pw.x input of a Quantum ESPRESSO test-suite (test-suite/pw_* /*.in) with
 * the product's validator and prints each error and warning and the totals: the check that
 * the validator's errors are only where pw.x stops.
 *
 *   node --import tsx scripts/qe-defs/check-test-suite.ts DIR [--qe-version 6.7|7.2|develop] [--json]
 *
 * DIR is a test-suite folder (of a QE checkout, or test/fixtures/qe/qe-7.2-test-suite, the
 * qe-7.2 inputs kept in this repository). Exits 1 when an input has an error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { QE_VERSIONS, type QeVersion } from '../../src/core/dft/qe/definitionTypes';
import { validatePwInput } from '../../src/core/dft/qe/validate';

export interface SuiteReport {
  inputs: number;
  errors: number;
  warnings: number;
  infos: number;
  /** "severity code" -> count. */
  byCode: Record<string, number>;
  /** "file:line: severity code: message" for every error and warning. */
  findings: string[];
}

export function checkTestSuite(dir: string, qeVersion: QeVersion): SuiteReport {
  const files = fs
    .readdirSync(dir)
    .filter((d) => d.startsWith('pw_') && fs.statSync(path.join(dir, d)).isDirectory())
    .sort()
    .flatMap((d) =>
      fs
        .readdirSync(path.join(dir, d))
        .filter((f) => f.endsWith('.in') && !f.startsWith('benchmark'))
        .sort()
        .map((f) => path.join(d, f)),
    );
  const report: SuiteReport = { inputs: files.length, errors: 0, warnings: 0, infos: 0, byCode: {}, findings: [] };
  for (const f of files) {
    const r = validatePwInput(fs.readFileSync(path.join(dir, f), 'utf8'), { qeVersion });
    for (const d of r.diagnostics) {
      const key = `${d.severity} ${d.code}`;
      report.byCode[key] = (report.byCode[key] ?? 0) + 1;
      if (d.severity === 'info') report.infos++;
      else report.findings.push(`${f}:${d.range.start.line + 1}: ${key}: ${d.message}`);
    }
    report.errors += r.errorCount;
    report.warnings += r.warningCount;
  }
  return report;
}

function main(): void {
  const args = process.argv.slice(2);
  const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--qe-version');
  const at = args.indexOf('--qe-version');
  const version = (at >= 0 ? args[at + 1] : '7.2') as QeVersion;
  if (!dir || !fs.existsSync(dir) || !QE_VERSIONS.includes(version)) {
    console.error(
      'usage: node --import tsx scripts/qe-defs/check-test-suite.ts DIR [--qe-version 6.7|7.2|develop] [--json]\n' +
        '  DIR: a QE test-suite folder holding pw_*/ subfolders (e.g. test/fixtures/qe/qe-7.2-test-suite)',
    );
    process.exit(2);
  }
  const report = checkTestSuite(dir, version);
  if (args.includes('--json')) console.log(JSON.stringify(report, null, 1));
  else {
    for (const f of report.findings) console.log(f);
    console.log(
      `\n${report.inputs} inputs validated with the QE ${version} definitions: ${report.errors} errors, ${report.warnings} warnings, ${report.infos} notes`,
    );
    for (const [k, n] of Object.entries(report.byCode).sort()) console.log(`  ${n.toString().padStart(4)}  ${k}`);
  }
  process.exit(report.errors ? 1 : 0);
}

if (require.main === module) main();
