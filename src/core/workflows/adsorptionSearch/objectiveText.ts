/**
 * An adsorption search in words: the objective line a plan and a report carry, and the
 * sentences that name one ("most stable configuration of CO on Pt(111) with EMT").
 */
import { MOLECULE_NAMES } from '../../dft/structure/molecules';
import type { AdsorptionSearchInputs, PwCalculatorInputs } from './inputSchema';

export function slabLabel(i: AdsorptionSearchInputs): string {
  if ('generate' in i.slab) {
    const g = i.slab.generate;
    return `${g.metal}(${g.facet.replace(/^fcc/, '')})`;
  }
  const counts = new Map<string, number>();
  for (const s of i.slab.structure.symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => `${el}${n > 1 ? n : ''}`).join('');
}

/** The search's calculator in a few words: "pw.x PBE", "EMT", or "i-PI calculator" (the user's own, e.g. a machine-learned potential). */
export function calculatorLabel(c: AdsorptionSearchInputs['calculator'] | undefined): string {
  if (c?.kind === 'pw.x') return `pw.x ${(c as PwCalculatorInputs).functional ?? 'PBE'}`;
  return c?.kind === 'ipi' ? 'i-PI calculator' : 'EMT';
}

export function searchObjective(raw: Record<string, unknown>): string {
  const i = raw as unknown as AdsorptionSearchInputs;
  const calc = calculatorLabel(i.calculator);
  const slab = i.slab && 'generate' in i.slab ? `${i.slab.generate.metal}(${(i.slab.generate.facet ?? 'fcc111').replace(/^fcc/, '')})` : i.slab && 'structure' in i.slab && i.slab.structure ? slabLabel(i) : 'the slab';
  return `Most stable adsorption configuration of ${typeof i.adsorbate === 'string' ? i.adsorbate : 'the adsorbate'} on ${slab} (AdsMind closed loop, ${calc})`;
}

/** "most stable configuration of CO on Pt(111) with EMT" and similar sentences. */
export function searchInputsFromText(text: string): Record<string, unknown> | undefined {
  const m = /(?:most stable|lowest[- ]energy|best)\s+(?:adsorption\s+)?(?:configuration|site|geometry|adsorption site)\s+(?:of|for)\s+([A-Za-z0-9]+)\s+on\s+([A-Z][a-z]?)\s*\(\s*(111|100|110)\s*\)/i.exec(text);
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
