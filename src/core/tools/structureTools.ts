/** build_bulk, build_slab, place_adsorbate, build_molecule: structures as plain data (dft/structure), or read from the user's file (dft/io). */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { StructureFileError } from '../dft/io/errors';
import { readStructureFile } from '../dft/io/structureFile';
import { analyseSymmetry, DEFAULT_SYMPREC_ANGSTROM, symprecSaid } from '../dft/structure/symmetry';
import { bulk, type BulkKind } from '../dft/structure/bulk';
import { MOLECULE_NAMES, molecule } from '../dft/structure/molecules';
import { placeAdsorbate, type Orientation } from '../dft/structure/placement';
import { FACETS, slab } from '../dft/structure/surface';
import type { Structure, Vec3 } from '../dft/types';
import { artifactRefSchema, enumSchema, quantitySchema, seedOnlySchema } from '../guard/schemaAnnotations';

const formula = (s: Structure): string => {
  const counts = new Map<string, number>();
  for (const el of s.symbols) counts.set(el, (counts.get(el) ?? 0) + 1);
  return [...counts].map(([el, n]) => (n === 1 ? el : `${el}${n}`)).join('');
};

/** Read a structure file for build_bulk's `from`: the structure, with its source, and the file's bytes. */
function readFrom(file: string, sha256: string | undefined): { structure: Structure; bytes: Buffer } {
  let structure: Structure;
  try {
    structure = readStructureFile(file);
  } catch (e) {
    const located = e instanceof StructureFileError ? e.located() : (e as Error).message;
    throw new Error(`build_bulk: ${located}`);
  }
  const bytes = fs.readFileSync(file);
  if (sha256 && structure.source?.sha256 !== sha256) {
    throw new Error(
      `build_bulk: ${file} changed since the objective was read (sha256 ${structure.source?.sha256?.slice(0, 12)}…, the objective recorded ${sha256.slice(0, 12)}…). ` +
        'Start a new run to compute the structure as it is now, or restore the file.',
    );
  }
  if (!structure.pbc.every(Boolean)) {
    throw new Error(
      `build_bulk: ${file} is not periodic in three directions (a slab or molecule); give a bulk crystal, or use it as a slab.`,
    );
  }
  return { structure, bytes };
}

export const buildBulkTool = defineTool({
  name: 'build_bulk',
  description:
    'Build a bulk crystal: element(s), Bravais lattice or binary prototype (rocksalt, zincblende, cesiumchloride) and lattice constant (Å); the primitive cell unless cubic is true. ' +
    "Or read it from the user's structure file (from: CIF, POSCAR, pw.x input or output, extxyz, XSF) as it is, cell and atoms, " +
    'recording the file and its sha256 (and keeping a copy in the run). The symmetry of the cell later decides how an EOS volume becomes lattice parameters.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      from: {
        type: 'string',
        minLength: 1,
        description:
          'A structure file to read the crystal from (CIF, POSCAR/CONTCAR, pw.x input or output, extxyz, XSF); absolute, or relative to the working directory.',
      },
      sha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description: 'With from: the sha256 the objective recorded; the call is refused if the file changed since.',
      },
      symprecAngstrom: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 0.5,
        description: `The symmetry tolerance, Å, the crystal's space group is found at (default ${DEFAULT_SYMPREC_ANGSTROM}; raise it for a file with noisy positions); the structure carries it, so every later symmetry analysis of it uses the same.`,
      },
      cell: {
        type: 'string',
        enum: ['as-given', 'primitive'],
        description:
          "With from: the cell as the file gives it (default), or the crystal's standardised primitive cell (fewest atoms; the same crystal).",
      },
      elements: {
        type: 'array',
        items: { type: 'string', pattern: '^[A-Z][a-z]?$' },
        minItems: 1,
        maxItems: 2,
        description: 'One element, or cation and anion for rocksalt, zincblende and cesiumchloride (e.g. ["Ga", "As"]).',
      },
      bravais: {
        type: 'string',
        enum: ['fcc', 'bcc', 'diamond', 'hcp', 'sc', 'rocksalt', 'zincblende', 'cesiumchloride'],
        description:
          'The lattice of an element, or the prototype of a binary compound: rocksalt (B1, NaCl, MgO), zincblende (B3, GaAs, SiC: diamond with two species), cesiumchloride (B2, CsCl: simple cubic with the anion at the body centre).',
      },
      latticeConstantAngstrom: seedOnlySchema(
        quantitySchema('Starting lattice constant a', 'Å', { exclusiveMinimum: 0 }),
        'it is the starting lattice constant: the EOS series scales it and the fit finds the minimum (eos-brackets-minimum checks it is bracketed), and a vc-relax moves the cell to its own minimum',
      ),
      cOverA: { type: 'number', exclusiveMinimum: 0, description: 'hcp only (default ideal √(8/3)).' },
      cubic: { type: 'boolean', description: 'The conventional cubic cell instead of the primitive one.' },
    },
    oneOf: [{ required: ['from'] }, { required: ['elements', 'bravais', 'latticeConstantAngstrom'] }],
    additionalProperties: false,
  },
  rules: ['atoms-apart'],
  outputs: [ARTIFACTS.bulkStructure],
  parameterNotes: {
    latticeConstantAngstrom: 'an experimental or tabulated value as the starting point of an EOS series; it is not the result.',
    bravais: 'the ground-state structure of the element (or the prototype of the compound) at ambient conditions.',
    from: "the user's own structure file, read as it is.",
    symprecAngstrom: 'the tolerance the objective set for the file; leave it out otherwise.',
  },
  async run(raw) {
    const a = raw as {
      from?: string;
      sha256?: string;
      symprecAngstrom?: number;
      cell?: 'as-given' | 'primitive';
      elements?: string[];
      bravais?: BulkKind;
      latticeConstantAngstrom?: number;
      cOverA?: number;
      cubic?: boolean;
    };
    if (a.from) {
      const read = readFrom(a.from, a.sha256);
      if (a.symprecAngstrom !== undefined) read.structure = { ...read.structure, symprecAngstrom: a.symprecAngstrom };
      const src = read.structure.source!;
      const analysis = (() => {
        try {
          return analyseSymmetry(read.structure, read.structure.labels ? { byLabel: true } : {});
        } catch {
          return undefined;
        }
      })();
      const sym = analysis
        ? {
            spaceGroup: `${analysis.spaceGroup.symbol} (${analysis.spaceGroup.number})`,
            crystalSystem: analysis.spaceGroup.crystalSystem,
            ...(a.symprecAngstrom !== undefined ? { symprecAngstrom: a.symprecAngstrom } : {}),
          }
        : undefined;
      if (a.cell === 'primitive' && !analysis)
        throw new Error(
          `build_bulk: the symmetry of ${a.from} cannot be found${symprecSaid(a.symprecAngstrom)}, so it has no standardised primitive cell; use cell: 'as-given', or another symprecAngstrom.`,
        );
      // Species labels (Fe1/Fe2 of an antiferromagnet) tell atoms apart that the primitive cell of the elements would merge.
      const primitive = a.cell === 'primitive' && !read.structure.labels;
      const structure: Structure = primitive
        ? { ...analysis!.primitive, source: src, info: { ...(analysis!.primitive.info ?? {}), cell: 'primitive (standardised)' } }
        : read.structure;
      const bytes = read.bytes;
      const name = path.basename(src.file);
      return {
        artifacts: [
          {
            kind: 'structure',
            name: 'bulk_structure',
            value: structure,
            file: { name, bytes },
            meta: {
              formula: formula(structure),
              natoms: structure.symbols.length,
              sourceFile: src.file,
              sha256: src.sha256,
              format: src.format,
              cell: primitive ? 'primitive' : 'as-given',
              ...(sym ?? {}),
            },
          },
        ],
        summary: `${formula(structure)} read from ${name} (${src.format}, sha256 ${src.sha256.slice(0, 12)}…): ${structure.symbols.length} atom(s)${primitive ? ` in the standardised primitive cell (${read.structure.symbols.length} in the file)` : ''}${sym ? `, ${sym.spaceGroup}${symprecSaid(a.symprecAngstrom)}` : ''}`,
      };
    }
    const built = bulk({
      kind: a.bravais!,
      symbols: a.elements!,
      aAngstrom: a.latticeConstantAngstrom!,
      ...(a.cOverA ? { cAngstrom: a.cOverA * a.latticeConstantAngstrom! } : {}),
      cell: a.cubic && a.bravais !== 'hcp' ? 'conventional' : 'primitive',
    });
    const s: Structure = a.symprecAngstrom !== undefined ? { ...built, symprecAngstrom: a.symprecAngstrom } : built;
    return {
      artifacts: [{ kind: 'structure', name: 'bulk_structure', value: s, meta: { formula: formula(s), natoms: s.symbols.length } }],
      summary: `${a.bravais} ${formula(s)}, a = ${a.latticeConstantAngstrom} Å, ${s.symbols.length} atom(s) in the ${a.cubic ? 'conventional' : 'primitive'} cell`,
    };
  },
});

/** Repeats of the surface cell along each in-plane vector. */
const LATERAL_REPEAT = { type: 'integer', minimum: 1, maximum: 8 } as const;

export const buildSlabTool = defineTool({
  name: 'build_slab',
  description:
    'Build a slab of a metal surface (facet such as fcc111) at a lattice constant (reference the computed one), with ' +
    'layers, vacuum (Å), lateral size and fixed bottom layers. Atoms are tagged by layer (1 = top).',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      element: { type: 'string', pattern: '^[A-Z][a-z]?$' },
      facet: { type: 'string', enum: [...FACETS] },
      latticeConstantAngstrom: quantitySchema('Bulk lattice constant the slab is cut at', 'Å', { exclusiveMinimum: 0 }),
      cOverA: { type: 'number', exclusiveMinimum: 0, description: 'hcp0001 only: the c/a of the bulk (default ideal √(8/3)).' },
      size: { type: 'array', prefixItems: [LATERAL_REPEAT, LATERAL_REPEAT], minItems: 2, maxItems: 2 },
      layers: { type: 'integer', minimum: 1, maximum: 20 },
      vacuumAngstrom: quantitySchema(
        'Vacuum on each side of the slab (as in ASE): the gap between the slab and its periodic image is twice this',
        'Å',
        { minimum: 0 },
      ),
      fixedLayers: { type: 'integer', minimum: 0 },
    },
    required: ['element', 'facet', 'latticeConstantAngstrom', 'size', 'layers', 'vacuumAngstrom', 'fixedLayers'],
    additionalProperties: false,
  },
  rules: ['atoms-apart'],
  outputs: [ARTIFACTS.slab],
  parameterNotes: {
    latticeConstantAngstrom:
      'the lattice constant computed with the same functional and settings (reference it), not an experimental value.',
    layers: 'four or more for adsorption energies on close-packed metal surfaces.',
    vacuumAngstrom: '5–8 Å on each side (a 10–16 Å gap between images) so the slab does not interact with its image.',
    fixedLayers: 'the bottom half of the slab, to mimic bulk.',
  },
  async run(a) {
    if (a.cOverA !== undefined && a.facet !== 'hcp0001')
      throw new Error(`build_slab: cOverA is the c/a of an hcp crystal; ${a.facet} is cut from a cubic one. Leave cOverA out.`);
    const s = slab({
      facet: a.facet,
      symbol: a.element,
      aAngstrom: a.latticeConstantAngstrom,
      ...(a.cOverA && a.facet === 'hcp0001' ? { cAngstrom: a.cOverA * a.latticeConstantAngstrom } : {}),
      size: a.size,
      layers: a.layers,
      vacuumAngstrom: a.vacuumAngstrom,
      fixedLayers: a.fixedLayers,
    });
    return {
      artifacts: [{ kind: 'structure', name: 'slab', value: s, meta: { formula: formula(s), natoms: s.symbols.length } }],
      summary: `${a.element}(${a.facet.replace(/^[a-z]+/, '')}) ${a.size.join('×')} slab, ${a.layers} layers (${a.fixedLayers} fixed), ${a.vacuumAngstrom} Å vacuum on each side (${Number((2 * a.vacuumAngstrom).toFixed(3))} Å between images), ${s.symbols.length} atoms`,
    };
  },
});

export const placeAdsorbateTool = defineTool({
  name: 'place_adsorbate',
  description:
    'Place an adsorbate from the molecule table (e.g. CO, H, O, OH) at a site of a slab (ontop, bridge, fcc, hcp, ...), upright by default, at a height from covalent radii unless given.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      slab: artifactRefSchema('The slab (build_slab output).', { kinds: ['structure'], names: ['slab'] }),
      adsorbate: enumSchema(MOLECULE_NAMES),
      site: { type: 'string', enum: ['ontop', 'bridge', 'fcc', 'hcp', 'hollow', 'longbridge', 'shortbridge'] },
      heightAngstrom: quantitySchema('Height of the binding atom above the top layer', 'Å', { exclusiveMinimum: 0 }),
    },
    required: ['slab', 'adsorbate', 'site'],
    additionalProperties: false,
  },
  rules: ['atoms-apart'],
  outputs: [ARTIFACTS.slabWithAdsorbate],
  parameterNotes: { heightAngstrom: 'omit it to use covalent radii; otherwise near a typical bond length (1.8–2.0 Å for C on Pt).' },
  async run(a, ctx) {
    const base = ctx.resolve(a.slab) as Structure;
    const orientation: Orientation = { kind: 'upright' };
    const p = placeAdsorbate(base, {
      adsorbate: a.adsorbate,
      site: a.site,
      orientation,
      ...(a.heightAngstrom ? { heightAngstrom: a.heightAngstrom } : {}),
    });
    return {
      artifacts: [
        {
          kind: 'structure',
          name: 'slab_with_adsorbate',
          value: p.structure,
          meta: { formula: formula(p.structure), natoms: p.structure.symbols.length, site: a.site, heightAngstrom: p.heightAngstrom },
        },
      ],
      summary: `${a.adsorbate} at ${a.site}, ${p.heightAngstrom.toFixed(2)} Å above the top layer (closest pair ${p.tightestPair.distanceAngstrom.toFixed(2)} Å vs covalent ${p.tightestPair.covalentSumAngstrom.toFixed(2)} Å)`,
    };
  },
});

export const buildMoleculeTool = defineTool({
  name: 'build_molecule',
  description: 'A gas-phase molecule from the molecule table, centred in a cubic box (Å), for the reference energy of an adsorbate.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      name: enumSchema(MOLECULE_NAMES),
      boxAngstrom: quantitySchema('Edge of the cubic box', 'Å', { minimum: 5 }),
    },
    required: ['name', 'boxAngstrom'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.molecule],
  parameterNotes: { boxAngstrom: 'at least 10 Å (12–15 Å for polar molecules) so periodic images do not interact.' },
  async run(raw) {
    const a = raw as { name: string; boxAngstrom: number };
    const m = molecule(a.name);
    const c = m.positions
      .reduce((s, p) => [s[0] + p[0], s[1] + p[1], s[2] + p[2]] as Vec3, [0, 0, 0] as Vec3)
      .map((x) => x / m.positions.length);
    const h = a.boxAngstrom / 2;
    const s: Structure = {
      symbols: m.symbols,
      positions: m.positions.map((p) => [p[0] - c[0]! + h, p[1] - c[1]! + h, p[2] - c[2]! + h] as Vec3),
      cell: [
        [a.boxAngstrom, 0, 0],
        [0, a.boxAngstrom, 0],
        [0, 0, a.boxAngstrom],
      ],
      pbc: [true, true, true],
      info: { molecule: m.name },
    };
    return {
      artifacts: [
        { kind: 'structure', name: 'molecule', value: s, meta: { formula: formula(s), natoms: s.symbols.length, source: m.source } },
      ],
      summary: `${m.name} in a ${a.boxAngstrom} Å box (${m.source})`,
    };
  },
});
