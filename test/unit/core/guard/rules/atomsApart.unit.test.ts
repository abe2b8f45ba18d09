/**
 * Tier-1 rule atoms-apart: no two atoms (periodic images included) closer than half the sum of
 * their covalent radii, in the structure a call builds or hands to a calculator; and every
 * structure the templates and example files build at their default settings passes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../../../src/core/agents/toolRegistry';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import { bulk, type BulkKind } from '../../../../../src/core/dft/structure/bulk';
import { closeContacts } from '../../../../../src/core/dft/structure/closeContacts';
import { MOLECULE_NAMES, moleculeInBox } from '../../../../../src/core/dft/structure/molecules';
import { placeAdsorbate } from '../../../../../src/core/dft/structure/placement';
import { slab, type Facet } from '../../../../../src/core/dft/structure/surface';
import type { Structure } from '../../../../../src/core/dft/types';
import { atomsApart, MIN_FRACTION_OF_COVALENT_SUM } from '../../../../../src/core/guard/rules/atomsApart';
import type { Verdict } from '../../../../../src/core/guard/types';
import { MemoryProvenance } from '../support/memoryProvenance';
import { fccAl, proposed, structureArtifact } from '../support/domain';

const ROOT = path.resolve(__dirname, '../../../../..');
const registry = new ToolRegistry();
const schemaOf = (tool: string): object => registry.get(tool)!.schema;
const run = (tool: string, args: Record<string, unknown>, p = new MemoryProvenance()): Verdict[] =>
  atomsApart({ call: proposed(tool, args), schema: schemaOf(tool), provenance: p });
const fails = (vs: Verdict[]) => vs.filter((v) => v.level === 'fail');

const cube = (a: number): Structure['cell'] => [
  [a, 0, 0],
  [0, a, 0],
  [0, 0, a],
];

describe('tier-1 rule atoms-apart', () => {
  it('is listed by every tool that builds a structure or hands one to a calculator', () => {
    for (const tool of [
      'build_bulk',
      'build_slab',
      'place_adsorbate',
      'import_structure',
      'make_pw_input',
      'generate_series',
      'relax_structure',
      'evaluate_adsorption_hypothesis',
      'adsorption_search',
    ])
      assert.ok(registry.get(tool)!.rules.includes('atoms-apart'), `${tool} does not list atoms-apart`);
  });

  it('passes fcc Al at 4.05 Å, naming the nearest neighbours at a/√2', () => {
    const [v] = run('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 4.05 });
    assert.equal(v!.level, 'pass', v!.reasons[0]);
    assert.match(
      v!.reasons[0]!,
      /atom 1 \(Al\) and its own periodic image at cell offset \[[-0-9, ]+\] 2\.86 Å, 118 % of their covalent sum 2\.42 Å/,
    );
  });

  it('fails fcc Al at a = 0.2 Å (a k-spacing read as a lattice constant): the atom and its own image, distance, sum and what to check', () => {
    const [v] = run('build_bulk', { elements: ['Al'], bravais: 'fcc', latticeConstantAngstrom: 0.2 });
    assert.equal(v!.level, 'fail');
    assert.equal(v!.parameter, 'latticeConstantAngstrom');
    const r = v!.reasons[0]!;
    assert.match(r, /atom 1 \(Al\) and its own periodic image/);
    assert.match(r, /0\.141 Å apart/);
    assert.match(r, /2\.42 Å/);
    assert.match(r, /lattice constant/);
  });

  it('fails rocksalt MgO at a = 1.2 Å, naming the Mg–O pair and how many pairs are this close', () => {
    const [v] = run('build_bulk', { elements: ['Mg', 'O'], bravais: 'rocksalt', latticeConstantAngstrom: 1.2 });
    assert.equal(v!.level, 'fail');
    assert.match(
      v!.reasons[0]!,
      /atoms 1 \(Mg\) and 2 \(O\) \(through its periodic image at cell offset \[[-0-9, ]+\]\) are 0\.6 Å apart, 29 % of/,
    );
    assert.match(v!.reasons[0]!, /2 pairs in all are this close/);
  });

  it('passes every EOS point of ±10 % volume and fails a series whose values are lattice constants, not scale factors', () => {
    const p = new MemoryProvenance([
      { id: 'a-1', kind: 'qe-input', name: 'pw_input', value: { structure: fccAl(4.05) }, creatorTool: 'make_pw_input' },
    ]);
    const eos = [0.9, 1.1].map((v) => v ** (1 / 3));
    assert.deepEqual(fails(run('generate_series', { template: 'a-1', kind: 'eos', values: eos }, p)), []);
    const [v] = fails(run('generate_series', { template: 'a-1', kind: 'eos', values: [0.2, 4.05] }, p));
    assert.equal(v!.parameter, 'values');
    assert.match(v!.reasons[0]!, /scaled by 0\.2/);
    assert.deepEqual(fails(run('generate_series', { template: 'a-1', kind: 'ecutwfc', values: [20, 30] }, p)), []);
  });

  it('fails make_pw_input on a structure with two atoms 0.3 Å apart, naming both, and passes it at 3 Å', () => {
    const pair = (d: number): Structure => ({
      symbols: ['Pt', 'C'],
      positions: [
        [5, 5, 5],
        [5, 5, 5 + d],
      ],
      cell: cube(12),
      pbc: [true, true, true],
    });
    const p = new MemoryProvenance([structureArtifact('a-1', pair(0.3)), structureArtifact('a-2', pair(3))]);
    const [bad] = run('make_pw_input', { structure: 'a-1' }, p);
    assert.equal(bad!.level, 'fail');
    assert.equal(bad!.parameter, 'structure');
    assert.match(bad!.reasons[0]!, /atoms 1 \(Pt\) and 2 \(C\) are 0\.3 Å apart/);
    assert.match(bad!.reasons[0]!, /2\.12 Å/);
    assert.equal(run('make_pw_input', { structure: 'a-2' }, p)[0]!.level, 'pass');
  });

  it('finds a close pair in a strongly skewed cell that is only seen through an image three cells away', () => {
    // b = 5a + (0.2, 1.5, 0): a 4 × 1.5 × 4 Å lattice given by a basis skewed to γ ≈ 4°. The second O is
    // 12 Å from the first inside the cell, and no image within one cell of the given vectors comes within
    // 4 Å; its image three cells back along a is 0.63 Å away.
    const a: [number, number, number] = [4, 0, 0];
    const b: [number, number, number] = [20.2, 1.5, 0];
    const c: [number, number, number] = [0, 0, 4];
    const r2 = [0, 1, 2].map((k) => 0.98 * a[k]! + 0.4 * b[k]! + 0.05 * c[k]!) as [number, number, number];
    const skewed: Structure = { symbols: ['O', 'O'], positions: [[0, 0, 0], r2], cell: [a, b, c], pbc: [true, true, true] };
    let nearNeighbourCells = Infinity;
    for (const x of [-1, 0, 1])
      for (const y of [-1, 0, 1])
        for (const z of [-1, 0, 1])
          nearNeighbourCells = Math.min(
            nearNeighbourCells,
            Math.hypot(...[0, 1, 2].map((k) => r2[k]! + x * a[k]! + y * b[k]! + z * c[k]!)),
          );
    assert.ok(nearNeighbourCells > 4, `${nearNeighbourCells} Å within one cell of the given vectors`);
    const found = closeContacts(skewed, MIN_FRACTION_OF_COVALENT_SUM).tightest!;
    assert.ok(Math.abs(found.distanceAngstrom - Math.hypot(0, 0.6, 0.2)) < 1e-9, `${found.distanceAngstrom}`);
    assert.deepEqual([found.i, found.j, found.image], [0, 1, [-3, 0, 0]]);
    const p = new MemoryProvenance([structureArtifact('a-1', skewed)]);
    const [v] = run('make_pw_input', { structure: 'a-1' }, p);
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /atoms 1 \(O\) and 2 \(O\) \(through its periodic image at cell offset \[-3, 0, 0\]\) are 0\.632 Å apart/);
  });

  it('agrees with a brute-force search over ±3 cells on random skewed cells', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let t = 0; t < 60; t++) {
      const cell = [0, 1, 2].map((k) => [0, 1, 2].map((m) => (k === m ? 3 + 3 * rnd() : 3 * (rnd() - 0.5)))) as Structure['cell'];
      const n = 1 + Math.floor(4 * rnd());
      const positions = Array.from({ length: n }, () => {
        const f = [rnd(), rnd(), rnd()];
        return [0, 1, 2].map((k) => f[0]! * cell[0][k]! + f[1]! * cell[1][k]! + f[2]! * cell[2][k]!) as [number, number, number];
      });
      const s: Structure = { symbols: positions.map(() => 'Si'), positions, cell, pbc: [true, true, true] };
      let brute = Infinity;
      for (let i = 0; i < n; i++)
        for (let j = i; j < n; j++)
          for (let x = -3; x <= 3; x++)
            for (let y = -3; y <= 3; y++)
              for (let z = -3; z <= 3; z++) {
                if (i === j && !x && !y && !z) continue;
                const d = [0, 1, 2].map((k) => positions[j]![k]! + x * cell[0][k]! + y * cell[1][k]! + z * cell[2][k]! - positions[i]![k]!);
                brute = Math.min(brute, Math.hypot(...d));
              }
      const found = closeContacts(s, 0.5).tightest!.distanceAngstrom;
      assert.ok(Math.abs(found - brute) < 1e-9, `cell ${JSON.stringify(cell)}: found ${found} Å, brute force ${brute} Å`);
    }
  });

  it('fails a cell of zero volume', () => {
    const flat: Structure = {
      symbols: ['Al'],
      positions: [[0, 0, 0]],
      cell: [
        [4, 0, 0],
        [0, 4, 0],
        [4, 4, 0],
      ],
      pbc: [true, true, true],
    };
    const p = new MemoryProvenance([structureArtifact('a-1', flat)]);
    const [v] = run('make_pw_input', { structure: 'a-1' }, p);
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /zero volume/);
  });

  it("fails a POSCAR whose scale factor is 1 for a cell written in units of a (the file's units named)", () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'atoms-apart-'));
    const file = path.join(dir, 'POSCAR');
    fs.writeFileSync(file, 'Al fcc, cell in units of a\n1.0\n0 0.5 0.5\n0.5 0 0.5\n0.5 0.5 0\nAl\n1\nDirect\n0 0 0\n');
    const [v] = run('build_bulk', { from: file });
    assert.equal(v!.level, 'fail');
    assert.equal(v!.parameter, 'from');
    assert.match(v!.reasons[0]!, /POSCAR scale factor/);
    fs.writeFileSync(file, 'Al fcc\n4.05\n0 0.5 0.5\n0.5 0 0.5\n0.5 0.5 0\nAl\n1\nDirect\n0 0 0\n');
    assert.equal(run('build_bulk', { from: file })[0]!.level, 'pass');
    fs.rmSync(dir, { recursive: true });
  });

  it('fails an adsorbate placed 0.3 Å above the top layer, naming heightAngstrom; passes the covalent-radii placement', () => {
    const pt = slab({ facet: 'fcc111', symbol: 'Pt', aAngstrom: 3.97, size: [2, 2], layers: 3, vacuumAngstrom: 8, fixedLayers: 1 });
    const p = new MemoryProvenance([structureArtifact('a-1', pt, 'slab')]);
    const ok = run('place_adsorbate', { slab: 'a-1', adsorbate: 'CO', site: 'ontop' }, p);
    assert.deepEqual(fails(ok), []);
    const bad = fails(run('place_adsorbate', { slab: 'a-1', adsorbate: 'CO', site: 'ontop', heightAngstrom: 0.3 }, p));
    assert.equal(bad.length, 1);
    assert.equal(bad[0]!.parameter, 'heightAngstrom');
    assert.match(bad[0]!.reasons[0]!, /atoms 9 \(Pt\) and 13 \(C\) are 0\.3 Å apart/);
  });

  it('fails a slab cut at a lattice constant in the wrong unit scale (Pt(111) at a = 0.392 Å)', () => {
    const [v] = run('build_slab', {
      element: 'Pt',
      facet: 'fcc111',
      latticeConstantAngstrom: 0.392,
      size: [2, 2],
      layers: 4,
      vacuumAngstrom: 10,
      fixedLayers: 2,
    });
    assert.equal(v!.level, 'fail');
    assert.match(v!.reasons[0]!, /pairs in all are this close/);
  });

  it('passes a builder call it cannot build (the tool reports the error) and a call with no structure', () => {
    assert.equal(run('build_bulk', { elements: ['Al', 'Cu'], bravais: 'fcc', latticeConstantAngstrom: 4 })[0]!.level, 'pass');
    assert.equal(run('build_bulk', { from: '/no/such/file.cif' })[0]!.level, 'pass');
  });
});

describe('atoms-apart on the structures the templates and example files build at their default settings', () => {
  /** What the examples/*.yaml templates build by default (bulk, slabs with and without an adsorbate at each site, molecules). */
  const built: { what: string; s: Structure }[] = [];
  const bulks: [BulkKind, string[], number, boolean?][] = [
    ['fcc', ['Al'], 4.05],
    ['fcc', ['Al'], 4.05, true],
    ['fcc', ['Pt'], 3.92],
    ['bcc', ['Fe'], 2.83],
    ['bcc', ['Fe'], 2.83, true],
    ['diamond', ['Si'], 5.43],
    ['diamond', ['Si'], 5.6],
    ['rocksalt', ['Mg', 'O'], 4.21],
    ['rocksalt', ['Na', 'Cl'], 5.64],
    ['zincblende', ['Ga', 'As'], 5.65],
    ['hcp', ['Mg'], 3.21],
  ];
  for (const [kind, symbols, a, cubic] of bulks)
    for (const v of [0.9, 1, 1.1]) {
      const f = v ** (1 / 3);
      built.push({
        what: `${kind} ${symbols.join('')} a=${a}×${f.toFixed(3)}${cubic ? ' cubic' : ''}`,
        s: bulk({ kind, symbols, aAngstrom: a * f, cell: cubic ? 'conventional' : 'primitive' }),
      });
    }
  const slabs: [Facet, string, number, [number, number], number, number][] = [
    ['fcc111', 'Al', 4.05, [1, 1], 3, 8],
    ['fcc111', 'Al', 4.05, [1, 1], 9, 8],
    ['fcc111', 'Pt', 3.98, [1, 1], 2, 5],
    ['fcc111', 'Pt', 3.97, [2, 2], 3, 7.5],
    ['fcc111', 'Pt', 3.97, [2, 2], 5, 10],
    ['fcc111', 'Pt', 3.92, [3, 3], 4, 8],
  ];
  for (const [facet, symbol, a, size, layers, vacuum] of slabs) {
    const s = slab({ facet, symbol, aAngstrom: a, size, layers, vacuumAngstrom: vacuum, fixedLayers: 1 });
    built.push({ what: `${symbol}${facet} ${size.join('x')} ${layers} layers`, s });
    for (const site of ['ontop', 'bridge', 'fcc', 'hcp'] as const)
      for (const adsorbate of ['CO', 'H', 'O', 'OH'])
        built.push({
          what: `${adsorbate}@${site} on ${symbol}${facet} ${size.join('x')}`,
          s: placeAdsorbate(s, { adsorbate, site, orientation: { kind: 'upright' } }).structure,
        });
  }
  for (const name of MOLECULE_NAMES) built.push({ what: `${name} in a 10 Å box`, s: moleculeInBox(name, 10) });

  const files = [
    ...fs.readdirSync(path.join(ROOT, 'examples')).map((f) => path.join('examples', f)),
    ...fs.readdirSync(path.join(ROOT, 'examples/slabs')).map((f) => path.join('examples/slabs', f)),
    ...fs.readdirSync(path.join(ROOT, 'test/fixtures/structures')).map((f) => path.join('test/fixtures/structures', f)),
  ].filter((f) => !f.endsWith('.yaml') && fs.statSync(path.join(ROOT, f)).isFile());

  it(`passes all ${built.length} built structures, ±10 % EOS volumes included`, () => {
    const refused = built.flatMap(({ what, s }) => {
      const c = closeContacts(s, MIN_FRACTION_OF_COVALENT_SUM);
      return c.below || c.degenerateCell ? [`${what}: ${c.tightest?.distanceAngstrom} Å`] : [];
    });
    assert.deepEqual(refused, []);
    assert.ok(built.length > 100, `${built.length} structures`);
    // The set reaches real short bonds (C≡O at 79 % of its covalent sum, compressed cells): the margin to 50 % is measured, not assumed.
    const tightest = Math.min(...built.map(({ s }) => closeContacts(s, MIN_FRACTION_OF_COVALENT_SUM).tightest!.ratio));
    assert.ok(tightest > MIN_FRACTION_OF_COVALENT_SUM && tightest < 0.8, `tightest pair at ${tightest} of its covalent sum`);
  });

  it('passes every structure file of the examples and the reader fixtures that reads', () => {
    let read = 0;
    const refused: string[] = [];
    for (const f of files) {
      let s: Structure;
      try {
        s = readStructureFile(path.join(ROOT, f));
      } catch {
        continue; // a fixture of a reader error (partial occupancy, several blocks)
      }
      read++;
      const [v] = run('build_bulk', { from: path.join(ROOT, f) });
      if (v!.level !== 'pass') refused.push(`${f}: ${v!.reasons[0]}`);
      assert.ok(s.symbols.length > 0);
    }
    assert.deepEqual(refused, []);
    assert.ok(read >= 12, `only ${read} files read`);
  });
});
