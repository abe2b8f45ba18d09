/**
 * An adsorption search in words: the objective line a plan and a report carry, and the
 * sentences that name one ("most stable configuration of CO on Pt(111) with EMT").
 */
import { MOLECULE_NAMES } from '../../dft/structure/molecules';
import type { AdsorptionSearchInputs, SearchObjectiveInputs } from './inputSchema';

export function slabLabel(i: AdsorptionSearchInputs): string {
  if ('generate' in i.slab) {
    const g = i.slab.generate;
    return `${g.metal}(${g.facet.replace(/^fcc/, '')})`;
  }
  return formula(i.slab.structure.symbols);
}

/** "Cu33Au3": each element in order of first appearance with its count. */
function formula(symbols: readonly unknown[]): string {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(String(s), (counts.get(String(s)) ?? 0) + 1);
  return [...counts].map(([el, n]) => `${el}${n > 1 ? n : ''}`).join('');
}

/** The search's calculator in a few words: "pw.x PBE", "EMT", or "i-PI calculator" (the user's own, e.g. a machine-learned potential). */
export function calculatorLabel(c: (AdsorptionSearchInputs | SearchObjectiveInputs)['calculator']): string {
  if (c.kind === 'pw.x') return `pw.x ${c.functional ?? 'PBE'}`;
  return c.kind === 'ipi' ? 'i-PI calculator' : 'EMT';
}

/**
 * The objective line, of resolved inputs or of an objective file's as read (an adsorbate
 * perhaps still a SMILES, a slab file's structure read with it).
 */
export function searchObjective(i: AdsorptionSearchInputs | SearchObjectiveInputs): string {
  const calc = calculatorLabel(i.calculator);
  const symbols: unknown = 'generate' in i.slab ? undefined : i.slab.structure?.symbols;
  const slab =
    'generate' in i.slab
      ? `${i.slab.generate.metal}(${(i.slab.generate.facet ?? 'fcc111').replace(/^fcc/, '')})`
      : Array.isArray(symbols)
        ? formula(symbols)
        : 'the slab';
  return `Most stable adsorption configuration of ${typeof i.adsorbate === 'string' ? i.adsorbate : 'the adsorbate'} on ${slab} (AdsMind closed loop, ${calc})`;
}

/** "most stable configuration of CO on Pt(111) with EMT" and similar sentences. */
export function searchInputsFromText(text: string): Record<string, unknown> | undefined {
  const m =
    /(?:most stable|lowest[- ]energy|best)\s+(?:adsorption\s+)?(?:configuration|site|geometry|adsorption site)\s+(?:of|for)\s+([A-Za-z0-9]+)\s+on\s+([A-Z][a-z]?)\s*\(\s*(111|100|110)\s*\)/i.exec(
      text,
    );
  if (!m) return undefined;
  const adsorbate = MOLECULE_NAMES.find((n) => n.toLowerCase() === m[1]!.toLowerCase());
  if (!adsorbate) return undefined;
  const out: Record<string, unknown> = { adsorbate, slab: { generate: { metal: m[2], facet: `fcc${m[3]}` } } };
  if (/\bEMT\b/i.test(text)) out.calculator = { kind: 'emt' };
  else {
    const f = /\b(PBEsol|PBE|LDA|PZ)\b/i.exec(text);
    if (f) out.calculator = { kind: 'pw.x', functional: f[1]!.toUpperCase() === 'PBESOL' ? 'PBEsol' : f[1]!.toUpperCase() };
  }
  if (/\b(llm|model|language model)\s+planner\b/i.test(text)) out.planner = 'llm';
  const budget = /\b(\d{1,3})\s+relaxations?\b/i.exec(text);
  if (budget) out.maxRelaxations = Number(budget[1]);
  return out;
}
