/**
 * Access to the generated pw.x input descriptions, one per QE version, loaded on first
 * use (each is ~150 kB of JSON; most sessions need one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { QE_VERSIONS, type QeCard, type QeDefinitions, type QeNamelist, type QeVariable, type QeVersion } from './definitionTypes';

export * from './definitionTypes';

export interface QeDefinitionIndex {
  defs: QeDefinitions;
  namelist(name: string): QeNamelist | undefined;
  card(name: string): QeCard | undefined;
  /** A variable of a namelist, by name (case-insensitive, without index). */
  variable(namelist: string, name: string): QeVariable | undefined;
  /** The namelists that define a variable of this name (case-insensitive). */
  namelistsOf(name: string): QeNamelist[];
  namelistOrder(name: string): number;
}

/**
 * The generated descriptions are derived from QE's GPL-2.0-or-later definition files, so
 * they ship as separate data files next to the bundle (dist/qe-defs/, with their licence
 * notice) and are read at run time, never compiled into the MIT-licensed JavaScript.
 * Each is ~150 kB and loaded on first use.
 */
const DEFS_DIRS = [path.join(__dirname, 'qe-defs'), path.join(__dirname, 'defs')];
const FILES: Record<QeVersion, string> = { '6.7': 'pw-6.7.json', '7.2': 'pw-7.2.json', develop: 'pw-develop.json' };

function loadDefinitions(version: QeVersion): QeDefinitions {
  const file = FILES[version];
  for (const dir of DEFS_DIRS) {
    const p = path.join(dir, file);
    if (fs.existsSync(p)) return JSON.parse(fs.readFileSync(p, 'utf8')) as QeDefinitions;
  }
  throw new Error(
    `the pw.x input definitions for QE ${version} (${file}) are missing from ${DEFS_DIRS.join(' and ')}; ` +
      'reinstall the extension, or run `npm run build` in a source checkout.',
  );
}

const cache = new Map<QeVersion, QeDefinitionIndex>();

function index(defs: QeDefinitions): QeDefinitionIndex {
  const namelists = new Map(defs.namelists.map((n) => [n.name, n]));
  const cards = new Map(defs.cards.map((c) => [c.name, c]));
  const vars = new Map<string, QeVariable>();
  const owners = new Map<string, QeNamelist[]>();
  for (const n of defs.namelists) {
    for (const v of n.variables) {
      const key = v.name.toLowerCase();
      vars.set(`${n.name}/${key}`, v);
      owners.set(key, [...(owners.get(key) ?? []), n]);
    }
  }
  const order = new Map(defs.namelists.map((n, i) => [n.name, i]));
  return {
    defs,
    namelist: (name) => namelists.get(name.toUpperCase()),
    card: (name) => cards.get(name.toUpperCase()),
    variable: (namelist, name) => vars.get(`${namelist.toUpperCase()}/${name.toLowerCase()}`),
    namelistsOf: (name) => owners.get(name.toLowerCase()) ?? [],
    namelistOrder: (name) => order.get(name.toUpperCase()) ?? -1,
  };
}

/** The input description for a QE version. */
export function qeDefinitions(version: QeVersion): QeDefinitionIndex {
  let idx = cache.get(version);
  if (!idx) {
    if (!(version in FILES)) {
      throw new Error(`no pw.x input definitions for QE version "${version}"; use one of ${QE_VERSIONS.join(', ')}.`);
    }
    idx = index(loadDefinitions(version));
    cache.set(version, idx);
  }
  return idx;
}

export const DEFAULT_QE_VERSION: QeVersion = '7.2';

/**
 * The description to use for a pw.x version string such as "6.7", "6.7MaX", "7.1" or
 * "7.3.1": 6.x (and older) reads the 6.7 description, 7.0-7.2 the 7.2 one, later
 * versions develop.
 * Returns undefined for a string that names no version.
 */
export function definitionsVersionFor(version: string): QeVersion | undefined {
  const v = version.trim().toLowerCase();
  if (v === 'develop' || v === 'dev') return 'develop';
  const m = /^v?\.?(\d+)(?:\.(\d+))?/.exec(v);
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  if (major <= 6) return '6.7';
  if (major === 7 && minor <= 2) return '7.2';
  return 'develop';
}
