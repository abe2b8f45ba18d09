/**
 * What the atoms-apart rule costs: the closest-pair scan (all pairs, 27 images) on Pt(111) slabs of
 * 100 to 1000 atoms, and the whole rule on a build_slab call that builds a 500-atom slab.
 * Prints a table and writes bench/results/atoms-apart.json.
 *   npm run bench:atoms-apart
 */
import fs from 'node:fs';
import path from 'node:path';
import { closeContacts } from '../../src/core/dft/structure/closeContacts';
import { slab } from '../../src/core/dft/structure/surface';
import { ToolRegistry } from '../../src/core/agents/toolRegistry';
import { atomsApart, MIN_FRACTION_OF_COVALENT_SUM } from '../../src/core/guard/rules/atomsApart';
import type { ProvenanceView } from '../../src/core/provenance/view';

const REPEATS = 15;

function medianMs(f: () => void): number {
  for (let i = 0; i < 5; i++) f();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t = process.hrtime.bigint();
    f();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const sizes: { size: [number, number]; layers: number }[] = [
  { size: [5, 5], layers: 4 },
  { size: [5, 5], layers: 10 },
  { size: [5, 5], layers: 20 },
  { size: [8, 8], layers: 16 },
];
const scan = sizes.map(({ size, layers }) => {
  const s = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.97, size, layers, vacuumAngstrom: 8, fixedLayers: 1 });
  const ms = medianMs(() => closeContacts(s, MIN_FRACTION_OF_COVALENT_SUM));
  return { atoms: s.symbols.length, pairs: (s.symbols.length * (s.symbols.length + 1)) / 2, medianMs: Number(ms.toFixed(2)) };
});

const registry = new ToolRegistry();
const noProvenance = { artifact: () => undefined, call: () => undefined } as unknown as ProvenanceView;
const args = { element: 'Pt', facet: 'fcc111', latticeConstantAngstrom: 3.97, size: [5, 5], layers: 20, vacuumAngstrom: 8, fixedLayers: 1 };
const call = { tool: 'build_slab', args, refs: {}, reasons: {}, context: 'bench', agent: { role: 'dft' as const } };
const ruleMs = medianMs(() => atomsApart({ call, schema: registry.get('build_slab')!.schema, provenance: noProvenance }));

console.log('atoms-apart: closest-pair scan on Pt(111) slabs (median of %d, ms)', REPEATS);
for (const r of scan) console.log(`  ${String(r.atoms).padStart(5)} atoms  ${String(r.pairs).padStart(7)} pairs  ${r.medianMs} ms`);
console.log(`  the whole rule on build_slab (builds and scans 500 atoms): ${ruleMs.toFixed(2)} ms`);

const out = path.resolve(__dirname, '../../bench/results/atoms-apart.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  `${JSON.stringify(
    {
      bench: 'atoms-apart',
      at: new Date().toISOString(),
      method: `median of ${REPEATS} runs after 5 warm-up runs, one process, Node ${process.version}`,
      scan,
      buildSlab500RuleMs: Number(ruleMs.toFixed(2)),
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
