/**
 * Generates the pw.x input descriptions (src/core/dft/qe/defs/pw-<version>.json) and the
 * TextMate grammar (syntaxes/qe-input.tmLanguage.json) from QE's definition files in
 * scripts/qe-defs/source/, with the names and values pw.x's source accepts
 * (pw-namelists-<version>.json, written by namelists.ts from a QE checkout).
 *
 *   node --import tsx scripts/qe-defs/generate.ts          write the files
 *   node --import tsx scripts/qe-defs/generate.ts --check  exit 1 if a committed file is out of date
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { QeDefinitions, QeVersion } from '../../src/core/dft/qe/definitionTypes';
import { extractDefinitions } from './extract';
import { qeInputGrammar } from './grammar';
import { parseHelpdoc } from './helpdoc';
import { mergeSourceFacts } from './merge';
import { NAMELIST_FILES, type PwNamelists } from './namelists';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
const SOURCE_DIR = path.join(PROJECT_ROOT, 'scripts/qe-defs/source');

export const DEF_FILES: Record<QeVersion, string> = {
  '6.7': 'INPUT_PW-6.7.def',
  '7.2': 'INPUT_PW-7.2.def',
  develop: 'INPUT_PW-develop-2025.def',
};

export function definitionsFromSource(version: QeVersion): QeDefinitions {
  const file = DEF_FILES[version];
  const text = fs.readFileSync(path.join(SOURCE_DIR, file), 'utf8');
  const defs = extractDefinitions(parseHelpdoc(text, file), version, {
    file,
    sha256: createHash('sha256').update(text).digest('hex'),
    licence: 'Quantum ESPRESSO input definition, GPL-2.0-or-later (see scripts/qe-defs/source/NOTICE.md)',
  });
  // What pw.x's source accepts (names, spellings), read by namelists.ts from a QE checkout.
  const facts = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, NAMELIST_FILES[version]), 'utf8')) as PwNamelists;
  return mergeSourceFacts(defs, facts);
}

/** Every generated file: path relative to the project root -> content. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const all = (Object.keys(DEF_FILES) as QeVersion[]).map(definitionsFromSource);
  for (const defs of all) {
    files.set(`src/core/dft/qe/defs/pw-${defs.qeVersion}.json`, `${JSON.stringify(defs, null, 1)}\n`);
  }
  // The input parser needs only the names, from every version: a small file it can load eagerly.
  const names = {
    namelists: [...new Set(all.flatMap((d) => d.namelists.map((n) => n.name)))],
    cards: [...new Set(all.flatMap((d) => d.cards.map((c) => c.name)))],
  };
  files.set('src/core/dft/qe/defs/names.json', `${JSON.stringify(names, null, 1)}\n`);
  files.set('syntaxes/qe-input.tmLanguage.json', `${JSON.stringify(qeInputGrammar(all), null, 2)}\n`);
  return files;
}

function main(): void {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [rel, content] of generatedFiles()) {
    const target = path.join(PROJECT_ROOT, rel);
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
    if (current === content) continue;
    if (check) {
      console.error(`${rel} is out of date: run node --import tsx scripts/qe-defs/generate.ts`);
      stale++;
    } else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      console.log(`wrote ${rel} (${(content.length / 1024).toFixed(0)} kB)`);
    }
  }
  if (stale) process.exit(1);
}

if (require.main === module) main();
