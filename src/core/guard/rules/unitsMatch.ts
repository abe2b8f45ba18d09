/**
 * A value taken from an artifact must be in the unit the argument takes: 7.6 bohr
 * passed where Å is expected is refused, not silently reinterpreted.
 */
import { sameDimension, type Unit } from '../../units';
import { parseRef } from '../../provenance/view';
import { unitOfArgument } from '../schemaAnnotations';
import { label, referencesOf, verdict, type TierOneRule } from './ruleInput';

export const RULE = 'units-match';

/** Unit suffixes of field and argument names ("ecutwfcRy", "energyEv", "v0Angstrom3"), longest first. */
const NAME_SUFFIXES: [RegExp, Unit][] = [
  [/MevPerAtom$/, 'meV/atom'],
  [/EvPerAtom$/, 'eV/atom'],
  [/PerAngstrom$/, '1/Å'],
  [/Angstrom3$/, 'Å^3'],
  [/Angstrom$/, 'Å'],
  [/Bohr3$/, 'bohr^3'],
  [/Bohr$/, 'bohr'],
  [/Mev$/, 'meV'],
  [/Ev$/, 'eV'],
  [/Ry$/, 'Ry'],
  [/GPa$/, 'GPa'],
  [/Kbar$/, 'kbar'],
];

export function unitFromName(name: string): Unit | undefined {
  return NAME_SUFFIXES.find(([re]) => re.test(name))?.[1];
}

const normalise = (u: string): string => (u === 'Ry (cutoff)' ? 'Ry' : u);

export const unitsMatch: TierOneRule = (input) => {
  const out = [];
  let checked = 0;
  for (const r of referencesOf(input)) {
    if (!r.resolution.ok) continue;
    const a = r.resolution.artifact;
    const path = parseRef(r.ref)?.path ?? [];
    const recorded = path.length ? unitFromName(path[path.length - 1]!) ?? (typeof r.resolution.value === 'number' ? a.unit : undefined) : a.unit;
    if (r.asArtifact) {
      const wanted = r.expect?.unit;
      if (!wanted || !recorded) continue;
      checked++;
      if (!sameDimension(normalise(recorded) as Unit, wanted)) {
        out.push(verdict(RULE, 'fail', [`${label(r)} needs a quantity in ${wanted} (or a convertible unit) but ${r.ref} is in ${recorded}.`], r.parameter));
      }
      continue;
    }
    const declared = unitOfArgument(input.schema, r.parameter) ?? unitFromName(r.parameter);
    if (!declared || !recorded) continue;
    checked++;
    if (normalise(declared) !== normalise(recorded)) {
      out.push(verdict(RULE, 'fail', [
        `${r.parameter} takes ${declared} but its reference ${r.ref} is in ${recorded}. ` +
          (sameDimension(normalise(declared) as Unit, normalise(recorded) as Unit)
            ? `Reference a value in ${declared}, or give the converted number as a literal with the conversion as its reason.`
            : 'The two measure different things: reference the quantity this argument needs.'),
      ], r.parameter));
    }
  }
  return out.length ? out : [verdict(RULE, 'pass', [checked ? `${checked} referenced unit(s) match` : 'no units to compare'])];
};
