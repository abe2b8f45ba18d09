/** Reading values out of a parsed pw.x input, the way Fortran assigns them. */
import { logicalOf, numberOf, stringOf, type FortranValue } from './fortran';
import type { Assignment, Card, Namelist, PwInput, Range, ValueItem } from './model';

export interface AssignedValue {
  /** Canonical key: "ecutwfc", "celldm(1)". */
  key: string;
  value: FortranValue;
  item: ValueItem;
  assignment: Assignment;
}

/**
 * Every element a namelist assigns, by canonical key; a later assignment of the same
 * element wins, as in Fortran. A value list fills consecutive elements
 * (starting_magnetization(2) = 0.5, 0.3 sets elements 2 and 3; "3*0.0" counts three),
 * and an unindexed name with one value also answers for element (1).
 */
export function assignedValues(nl: Namelist): Map<string, AssignedValue> {
  const out = new Map<string, AssignedValue>();
  for (const a of nl.assignments) {
    const base = a.name.toLowerCase();
    if (a.values.length === 0) continue;
    const single = a.values.length === 1 && (a.values[0]!.repeat ?? 1) === 1;
    if (single) {
      const v = a.values[0]!;
      out.set(a.key, { key: a.key, value: v.value, item: v, assignment: a });
      if (a.indices.length === 0) out.set(`${base}(1)`, { key: `${base}(1)`, value: v.value, item: v, assignment: a });
      continue;
    }
    if (a.indices.length > 1) {
      // Multi-index lists fill the first index fastest; rare in pw.x inputs, so only the first element is tracked.
      out.set(a.key, { key: a.key, value: a.values[0]!.value, item: a.values[0]!, assignment: a });
      continue;
    }
    let i = a.indices[0] ?? 1;
    for (const v of a.values) {
      for (let r = 0; r < (v.repeat ?? 1); r++, i++) {
        out.set(`${base}(${i})`, { key: `${base}(${i})`, value: v.value, item: v, assignment: a });
      }
    }
  }
  return out;
}

export function namelistOf(input: PwInput, name: string): Namelist | undefined {
  const up = name.toUpperCase();
  return input.namelists.find((n) => n.name === up);
}

export function cardOf(input: PwInput, name: string): Card | undefined {
  const up = name.toUpperCase();
  return input.cards.find((c) => c.name === up);
}

const cache = new WeakMap<Namelist, Map<string, AssignedValue>>();
function valuesOf(nl: Namelist): Map<string, AssignedValue> {
  let m = cache.get(nl);
  if (!m) {
    m = assignedValues(nl);
    cache.set(nl, m);
  }
  return m;
}

/** The value a namelist assigns to a key ("ecutwfc", "celldm(1)"), or undefined. */
export function valueOf(input: PwInput, namelist: string, key: string): FortranValue | undefined {
  const nl = namelistOf(input, namelist);
  return nl ? valuesOf(nl).get(key.toLowerCase().replace(/\s+/g, ''))?.value : undefined;
}

export function assignedOf(input: PwInput, namelist: string, key: string): AssignedValue | undefined {
  const nl = namelistOf(input, namelist);
  return nl ? valuesOf(nl).get(key.toLowerCase().replace(/\s+/g, '')) : undefined;
}

export const numberIn = (input: PwInput, namelist: string, key: string) => numberOf(valueOf(input, namelist, key));
export const stringIn = (input: PwInput, namelist: string, key: string) => stringOf(valueOf(input, namelist, key));
export const logicalIn = (input: PwInput, namelist: string, key: string) => logicalOf(valueOf(input, namelist, key));

/** Elements of a one-index array a namelist assigns: index -> value (e.g. starting_magnetization). */
export function arrayIn(input: PwInput, namelist: string, name: string): Map<number, AssignedValue> {
  const nl = namelistOf(input, namelist);
  const out = new Map<number, AssignedValue>();
  if (!nl) return out;
  const prefix = `${name.toLowerCase()}(`;
  for (const [key, v] of valuesOf(nl)) {
    const m = /^[^(]+\((\d+)\)$/.exec(key);
    if (key.startsWith(prefix) && m) out.set(Number(m[1]), v);
  }
  return out;
}

/** The range to point at for a key: its value when assigned, else the namelist header. */
export function rangeOfKey(input: PwInput, namelist: string, key: string): Range | undefined {
  const a = assignedOf(input, namelist, key);
  return a ? a.assignment.range : namelistOf(input, namelist)?.headerRange;
}
