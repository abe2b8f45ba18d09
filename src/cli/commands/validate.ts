/** `dreams validate FILE...`: check pw.x inputs against QE's definitions; non-zero exit on errors. */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { QE_VERSIONS, type QeVersion } from '../../core/dft/qe/definitions';
import { parsePwInput } from '../../core/dft/qe/input';
import { pseudoDirFor, upfHeadersForInput } from '../../core/dft/qe/upfFiles';
import { validatePwInput, type Diagnostic, type ValidateOptions } from '../../core/dft/qe/validate';
import { registerCliCommand } from '../cli';

const USAGE = `Usage: dreams validate FILE... [--json] [--qe-version 6.7|7.2|develop] [--pseudo-dir DIR]

Checks pw.x input files against Quantum ESPRESSO's own input definitions and the
cross-variable rules pw.x enforces, and prints each problem as FILE:LINE:COLUMN.

  --json              print the results as JSON (one entry per file)
  --qe-version V      definitions to check against: ${QE_VERSIONS.join(', ')}
                      (default: a "! qe-version: X" comment in the file, else 7.2)
  --pseudo-dir DIR    read the pseudopotentials' headers from DIR (cutoffs, functional,
                      electron count); by default the input's pseudo_dir when it exists here

Exit status: 0 no errors, 1 some file has errors, 2 bad usage or an unreadable file.`;

interface FileResult {
  file: string;
  qeVersion?: QeVersion;
  versionSource?: string;
  pseudopotentialChecks: string;
  errorCount: number;
  warningCount: number;
  diagnostics: (Diagnostic & { line: number; column: number })[];
  readError?: string;
}

function validateFile(file: string, qeVersion: QeVersion | undefined, pseudoDir: string | undefined): FileResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return {
      file,
      pseudopotentialChecks: 'skipped',
      errorCount: 0,
      warningCount: 0,
      diagnostics: [],
      readError: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    };
  }
  const input = parsePwInput(text);
  const opts: ValidateOptions = {};
  if (qeVersion) opts.qeVersion = qeVersion;
  const dir = pseudoDirFor(input, pseudoDir ? { pseudoDir } : { inputDir: path.dirname(path.resolve(file)) });
  let pseudopotentialChecks: string;
  if (fs.existsSync(dir)) {
    opts.upfHeaders = upfHeadersForInput(input, { pseudoDir: dir });
    pseudopotentialChecks = `done (${dir})`;
  } else {
    pseudopotentialChecks = `skipped: ${dir} does not exist here (use --pseudo-dir)`;
  }
  const r = validatePwInput(input, opts);
  return {
    file,
    qeVersion: r.qeVersion,
    versionSource: r.versionSource,
    pseudopotentialChecks,
    errorCount: r.errorCount,
    warningCount: r.warningCount,
    diagnostics: r.diagnostics.map((d) => ({ ...d, line: d.range.start.line + 1, column: d.range.start.character + 1 })),
  };
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, 'qe-version': { type: 'string' }, 'pseudo-dir': { type: 'string' } },
    });
  } catch (e) {
    console.error(`dreams validate: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const files = parsed.positionals;
  const version = parsed.values['qe-version'];
  if (!files.length) {
    console.error(`dreams validate: no input file given.\n\n${USAGE}`);
    return 2;
  }
  if (version !== undefined && !QE_VERSIONS.includes(version as QeVersion)) {
    console.error(`dreams validate: --qe-version "${version}" is not one of ${QE_VERSIONS.join(', ')}.`);
    return 2;
  }
  const pseudoDir = parsed.values['pseudo-dir'];
  if (pseudoDir !== undefined && !fs.existsSync(pseudoDir)) {
    console.error(`dreams validate: --pseudo-dir ${pseudoDir} does not exist; give the directory that holds the UPF files.`);
    return 2;
  }
  const results = files.map((f) => validateFile(f, version as QeVersion | undefined, pseudoDir));
  if (parsed.values.json) {
    console.log(JSON.stringify(results, null, 2));
  } else {
    for (const r of results) {
      if (r.readError) {
        console.error(`${r.file}: ${r.readError}`);
        continue;
      }
      for (const d of r.diagnostics) console.log(`${r.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`);
      console.log(
        `${r.file}: ${r.errorCount} error${r.errorCount === 1 ? '' : 's'}, ${r.warningCount} warning${r.warningCount === 1 ? '' : 's'} ` +
          `(pw.x ${r.qeVersion} definitions${r.versionSource === 'default' ? ', the default' : ` from the ${r.versionSource}`}; pseudopotential checks ${r.pseudopotentialChecks})`,
      );
    }
  }
  if (results.some((r) => r.readError)) return 2;
  return results.some((r) => r.errorCount > 0) ? 1 : 0;
}

registerCliCommand({ name: 'validate', summary: "check pw.x input files against QE's definitions", usage: USAGE, run });
