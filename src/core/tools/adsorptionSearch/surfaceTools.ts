/**
 * import_structure and prepare_adsorption_surface: a slab given with the objective (read
 * from the user's file when the objective was loaded) becomes an artifact; a slab and an
 * adsorbate become the standardised slab and its symmetry-distinct sites, which every
 * later step of the search reads.
 */
import { defineTool } from '../defineTool';
import { ARTIFACTS } from '../../artifacts/contracts';
import { adsorbate as adsorbateByName } from '../../adsorption/adsorbate';
import { findSites } from '../../adsorption/sites';
import { MIN_LATERAL_ANGSTROM, MIN_VACUUM_ANGSTROM, standardiseSlab } from '../../adsorption/slab';
import { formatExtxyz } from '../../dft/io/extxyz';
import { MOLECULE_NAMES } from '../../dft/structure/molecules';
import type { Structure } from '../../dft/types';
import { artifactRefSchema, enumSchema, quantitySchema } from '../../guard/schemaAnnotations';
import { SEARCH_ARTIFACT, type SurfaceValue } from '../../artifacts/adsorptionSearch';

const vec3 = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };

export const STRUCTURE_SCHEMA = {
  type: 'object',
  properties: {
    symbols: { type: 'array', items: { type: 'string', pattern: '^[A-Z][a-z]?$' }, minItems: 1, maxItems: 2000 },
    positions: { type: 'array', items: vec3, minItems: 1, maxItems: 2000, description: 'Cartesian positions, Å.' },
    cell: { type: 'array', items: vec3, minItems: 3, maxItems: 3, description: 'Lattice vectors as rows, Å.' },
    pbc: { type: 'array', items: { type: 'boolean' }, minItems: 3, maxItems: 3 },
    tags: { type: 'array', items: { type: 'integer' } },
    fixed: { type: 'array', items: { type: 'boolean' } },
    info: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
  },
  required: ['symbols', 'positions', 'cell', 'pbc'],
  additionalProperties: false,
};

const formula = (symbols: string[]): string => {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => (n === 1 ? el : `${el}${n}`)).join('');
};

export const importStructureTool = defineTool({
  name: 'import_structure',
  description:
    'Record a structure given with the objective (a slab the user supplied as an extxyz or XSF file, read when the objective was loaded) ' +
    'as a slab artifact, with where it came from and the sha256 of the file, so every result built on it traces back to it.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      structure: STRUCTURE_SCHEMA,
      source: { type: 'string', minLength: 1, maxLength: 500, description: 'Where the structure came from: the file name and its sha256.' },
    },
    required: ['structure', 'source'],
    additionalProperties: false,
  },
  rules: ['atoms-apart'],
  outputs: [ARTIFACTS.slab],
  parameterNotes: { structure: 'the slab exactly as the objective supplied it; standardisation happens in prepare_adsorption_surface.' },
  async run(raw) {
    const a = raw as { structure: Structure; source: string };
    const n = a.structure.symbols.length;
    if (a.structure.positions.length !== n)
      throw new Error(
        `import_structure: ${n} symbols but ${a.structure.positions.length} positions; the structure is inconsistent (source ${a.source}).`,
      );
    return {
      artifacts: [
        {
          kind: 'structure',
          name: SEARCH_ARTIFACT.importedSlab,
          value: a.structure,
          file: { name: 'slab.extxyz', bytes: formatExtxyz({ structure: a.structure }) },
          meta: { formula: formula(a.structure.symbols), natoms: n, source: a.source },
        },
      ],
      summary: `slab ${formula(a.structure.symbols)} (${n} atoms) from ${a.source}`,
    };
  },
});

export const prepareAdsorptionSurfaceTool = defineTool({
  name: 'prepare_adsorption_surface',
  description:
    'Standardise a slab for an adsorption search (surface normal a1 × a2, lateral vectors of at least 6 Å, at least 15 Å of vacuum, ' +
    'the bottom third fixed; every change listed) and find the ontop, bridge and hollow sites (fcc/hcp, 4-fold) of its top layer, ' +
    'grouped into symmetry-distinct classes, for the adsorbate named.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      slab: artifactRefSchema('The slab (build_slab or import_structure output).', { kinds: ['structure'] }),
      adsorbate: { ...enumSchema(MOLECULE_NAMES), description: 'The adsorbate from the molecule table.' },
      minLateralAngstrom: quantitySchema('A lateral vector shorter than this is repeated (AdsMind: 6)', 'Å', { exclusiveMinimum: 0 }),
      minVacuumAngstrom: quantitySchema('A vacuum below this is widened (AdsMind: 15)', 'Å', { exclusiveMinimum: 0 }),
      fixedFraction: {
        type: 'number',
        minimum: 0,
        maximum: 0.9,
        description: 'Fraction of the slab thickness, from the bottom, kept fixed (default 1/3).',
      },
    },
    required: ['slab', 'adsorbate'],
    additionalProperties: false,
  },
  rules: ['adsorption-search-standards'],
  outputs: [ARTIFACTS.standardisedSlab, ARTIFACTS.adsorptionSurface],
  parameterNotes: {
    minLateralAngstrom: '6 Å or more so an adsorbate does not meet its periodic image; less only for tests.',
    minVacuumAngstrom: '15 Å or more so the two surfaces do not interact through the image; less only for tests.',
  },
  async run(a, ctx) {
    const input = ctx.resolve(a.slab) as Structure;
    const slab = standardiseSlab(input, {
      minLateralAngstrom: a.minLateralAngstrom ?? MIN_LATERAL_ANGSTROM,
      minVacuumAngstrom: a.minVacuumAngstrom ?? MIN_VACUUM_ANGSTROM,
      ...(a.fixedFraction !== undefined ? { fixedFraction: a.fixedFraction } : {}),
    });
    const surface = findSites(slab.slab, slab.frame);
    if (surface.sites.length === 0)
      throw new Error(
        `prepare_adsorption_surface: no adsorption sites found on the top layer of ${a.slab} (${surface.topLayer.length} exposed atoms); check that the slab has a vacuum gap along a1 × a2.`,
      );
    const classes = new Map<string, SurfaceValue['classes'][number]>();
    for (const s of surface.sites) {
      const c = classes.get(s.fingerprint);
      if (c) c.copies++;
      else
        classes.set(s.fingerprint, {
          fingerprint: s.fingerprint,
          label: `${s.kind}${s.hollowType ? ` ${s.hollowType}` : ''} over ${s.surfaceAtoms.map((i) => slab.slab.symbols[i]).join('-')}`,
          copies: 1,
          example: s.surfaceAtoms,
        });
    }
    const value: SurfaceValue = { slab, surface, adsorbate: adsorbateByName(a.adsorbate), classes: [...classes.values()] };
    const n = slab.slab.symbols.length;
    return {
      artifacts: [
        {
          kind: 'structure',
          name: SEARCH_ARTIFACT.standardisedSlab,
          value: slab.slab,
          file: { name: 'standardised-slab.extxyz', bytes: formatExtxyz({ structure: slab.slab }) },
          meta: {
            formula: formula(slab.slab.symbols),
            natoms: n,
            vacuumAngstrom: slab.vacuumAngstrom,
            repeat: slab.repeat,
            changes: slab.changes,
          },
        },
        {
          kind: 'table',
          name: SEARCH_ARTIFACT.surface,
          value,
          meta: { adsorbate: a.adsorbate, sites: surface.sites.length, classes: classes.size },
        },
      ],
      summary:
        `${formula(slab.slab.symbols)} (${n} atoms, ${slab.vacuumAngstrom.toFixed(1)} Å vacuum): ${surface.topLayer.length} top-layer atoms, ` +
        `${surface.sites.length} sites in ${classes.size} classes (${[...classes.values()].map((c) => c.label).join('; ')})` +
        (slab.changes.length ? `. Standardisation: ${slab.changes.join(' ')}` : ''),
    };
  },
});
