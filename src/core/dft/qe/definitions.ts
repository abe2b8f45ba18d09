/**
 * Access to the generated pw.x input descriptions, one per QE version, loaded on first
 * use (each is ~150 kB of JSON; most sessions need one).
 */
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

// require() rather than import keeps each JSON out of the start-up path of the bundles.
const LOADERS: Record<QeVersion, () => QeDefinitions> = {
  '6.7': () => require('./defs/pw-6.7.json') as QeDefinitions,
  '7.2': () => require('./defs/pw-7.2.json') as QeDefinitions,
  develop: () => require('./defs/pw-develop.json') as QeDefinitions,
};

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
    const load = LOADERS[version];
    if (!load) {
      throw new Error(`no pw.x input definitions for QE version "${version}"; use one of ${QE_VERSIONS.join(', ')}.`);
    }
    idx = index(load());
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
