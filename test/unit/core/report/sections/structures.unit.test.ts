import assert from 'node:assert/strict';
import path from 'node:path';
import { readStructureFile } from '../../../../../src/core/dft/io/structureFile';
import type { Structure } from '../../../../../src/core/dft/types';
import type { ArtifactRecord } from '../../../../../src/core/provenance/types';
import { structureSvg, structuresReportSection } from '../../../../../src/core/report/sections/structures';
import { elementOf } from '../../../../../src/shared/elements';

const ROOT = path.resolve(__dirname, '../../../../..');
const record = (id: string, name: string, value: Structure, meta: Record<string, unknown> = {}): ArtifactRecord => ({
  id,
  kind: 'structure',
  name,
  value,
  contentHash: '',
  creator: 'c-1',
  inputs: [],
  concerns: [],
  status: 'final',
  meta,
  createdAt: '',
});

describe('structure stills for report.md', () => {
  it('draws a conventional rocksalt cell with its face atoms, coloured from the element table, with the cell edges', () => {
    const svg = structureSvg(readStructureFile(path.join(ROOT, 'examples/NaCl.cif')), 'NaCl');
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // 27 atoms drawn (8 in the cell and their images on the far faces), and one swatch per species
    assert.equal((svg.match(/<circle /g) ?? []).length, 27 + 2);
    assert.equal((svg.match(/<line /g) ?? []).length, 12);
    assert.match(svg, new RegExp(`stop-color="${elementOf('Na')!.colour}"`));
  });

  it('crosses fixed atoms', () => {
    const slab = readStructureFile(path.join(ROOT, 'test/fixtures/structures/POSCAR-slab-selective'));
    const svg = structureSvg(slab, 'slab');
    assert.ok((svg.match(/<path d="M/g) ?? []).length >= slab.fixed!.filter(Boolean).length);
    assert.match(svg, /× fixed/);
  });

  it("shows the structure read from the user's file with its sha256, and the last relaxed structure", () => {
    const nacl = readStructureFile(path.join(ROOT, 'examples/NaCl.cif'));
    const { source: _s, ...relaxed } = nacl;
    const section = structuresReportSection([
      record('a-1', 'bulk_structure', nacl, { spaceGroup: 'Fm-3m (225)' }),
      record('a-7', 'relaxed_structure', relaxed),
    ])!;
    assert.deepEqual(Object.keys(section.plots), ['structure-a-1.svg', 'structure-a-7.svg']);
    const md = section.markdown.join('\n');
    assert.match(md, /!\[Na4Cl4 from NaCl\.cif\]\(plots\/structure-a-1\.svg\)/);
    assert.match(md, new RegExp(`sha256 \`${nacl.source!.sha256}\`\\), Fm-3m \\(225\\)`));
    assert.match(md, /plots\/structure-a-7\.svg/);
    assert.equal(structuresReportSection([record('a-1', 'bulk_structure', relaxed)]), undefined, 'a structure built in code has no still');
  });
});
