/**
 * A formation energy is taken against the elements in their ground states: every reference a
 * single element in its standard-state phase (hcp Mg, the O2 molecule as a triplet, bcc Fe
 * ferromagnetic, ...), one reference per element of the compound, and nothing else subtracted.
 * That they share the compound's settings is settings-comparable's check.
 */
import { checkGroundState } from '../../dft/elementalReferences';
import { compositionOfSource, energySourceOf, type EnergySource } from '../../artifacts/energySource';
import { verdict, type TierOneRule } from './ruleInput';

export const RULE = 'formation-references-elemental';

export const formationReferencesElemental: TierOneRule = (input) => {
  const { args } = input.call;
  if (input.call.tool !== 'energy_difference' || args.quantity !== 'formation_energy')
    return [verdict(RULE, 'pass', ['not a formation energy'])];
  const energies = Array.isArray(args.energies) ? args.energies.map(String) : [];
  const coefficients = Array.isArray(args.coefficients) ? args.coefficients.map(Number) : [];
  const terms = energies.map((ref, i) => ({ ref, coefficient: coefficients[i] ?? 0, source: energySourceOf(input.provenance, ref) }));
  const unknown = terms.filter((t) => !t.source?.structure);
  if (unknown.length)
    return [
      verdict(
        RULE,
        'warn',
        [`the structures of ${unknown.map((t) => t.ref).join(', ')} are not on record, so their phases cannot be checked.`],
        'energies',
      ),
    ];
  const compounds = terms.filter((t) => t.coefficient > 0);
  const references = terms.filter((t) => t.coefficient < 0);
  const problems: string[] = [];
  const warnings: string[] = [];
  const passes: string[] = [];
  if (compounds.length !== 1)
    problems.push(
      `a formation energy has one compound with a positive coefficient, here ${compounds.length} (${compounds.map((t) => t.ref).join(', ') || 'none'})`,
    );
  const compoundElements = new Set(compounds.flatMap((t) => Object.keys(compositionOfSource(t.source)!)));
  const byElement = new Map<string, string[]>();
  for (const t of references) {
    const elements = Object.keys(compositionOfSource(t.source)!);
    if (elements.length !== 1) {
      problems.push(`${t.ref} holds ${elements.join(', ')}: a reference is a single element`);
      continue;
    }
    const el = elements[0]!;
    byElement.set(el, [...(byElement.get(el) ?? []), t.ref]);
    const s = t.source as EnergySource;
    const check = checkGroundState(el, s.structure!, {
      nspin: s.settings.nspin,
      ...(s.magnetization ? { totalBohrMagneton: s.magnetization.totalBohrMagnetonPerCell, order: s.magnetization.order } : {}),
    });
    const line = `${t.ref}: ${check.reason}`;
    if (check.level === 'fail') problems.push(line);
    else if (check.level === 'warn') warnings.push(line);
    else passes.push(line);
  }
  for (const el of compoundElements) {
    const refs = byElement.get(el) ?? [];
    if (refs.length === 0) problems.push(`${el} of the compound has no elemental reference`);
    if (refs.length > 1) problems.push(`${el} has ${refs.length} references (${refs.join(', ')}): take one ground state per element`);
  }
  for (const el of byElement.keys()) if (!compoundElements.has(el)) problems.push(`${el} is subtracted but the compound holds none`);
  if (problems.length) {
    return [
      verdict(
        RULE,
        'fail',
        [
          `the references are not the elements' ground states: ${problems.join('; ')}. Compute each element in its standard-state phase with the compound's settings and reference those energies.`,
        ],
        'energies',
      ),
    ];
  }
  if (warnings.length) return [verdict(RULE, 'warn', [warnings.join('; ')], 'energies')];
  return [verdict(RULE, 'pass', [passes.join('; ')], 'energies')];
};
