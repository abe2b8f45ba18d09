/**
 * magnetic_configuration: a structure whose magnetic atoms carry species labels by the sign of
 * their starting moment (Fe1 up, Fe2 down), so make_pw_input gives each its own starting
 * magnetization: the antiferromagnetic (or any collinear) order a spin-polarised run starts from.
 *
 * write_structure_files: a structure artifact (a relaxed geometry, a built crystal) written in
 * the structure formats DREAMS writes (CIF, POSCAR, extxyz, XSF, pw.x cards), each a file
 * artifact of the run with what the format could not hold said in its meta.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { formatLosses, formatStructure, type WritableFormat } from '../dft/io/structureFile';
import type { Structure } from '../dft/types';
import { artifactRefSchema, enumSchema } from '../guard/schemaAnnotations';
import { ARTIFACT } from '../artifacts/shapes';
import { formulaOf } from './runOutput';
import { magneticLabels } from '../dft/magnetism';

export { magneticLabels };

export const STRUCTURE_FORMATS: Record<string, { format: WritableFormat; extension: string }> = {
  cif: { format: 'cif', extension: 'cif' },
  poscar: { format: 'poscar', extension: 'vasp' },
  extxyz: { format: 'extxyz', extension: 'extxyz' },
  xsf: { format: 'xsf', extension: 'xsf' },
  pwx: { format: 'pwx-in', extension: 'pwi' },
};

export const magneticConfigurationTool = defineTool({
  name: 'magnetic_configuration',
  description:
    'Give a structure the collinear magnetic order a spin-polarised run starts from: a starting magnetization (−1 to 1) per atom, ' +
    'in atom order. Atoms of one element with different starting moments become species of their own (Fe1, Fe2); pass the returned ' +
    'startingMagnetization to make_pw_input with nspin 2. An antiferromagnet needs a cell with both sublattices (bcc Fe: the cubic 2-atom cell).',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure (e.g. build_bulk with cubic true).', { kinds: ['structure'] }),
      startingMagnetization: {
        type: 'array',
        items: { type: 'number', minimum: -1, maximum: 1 },
        minItems: 1,
        maxItems: 500,
        description: 'Starting magnetization of every atom, in atom order (0.5 up, −0.5 down, 0 for a non-magnetic atom).',
      },
    },
    required: ['structure', 'startingMagnetization'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.magneticStructure],
  parameterNotes: {
    startingMagnetization:
      'opposite signs on the two sublattices for an antiferromagnet, one sign everywhere for a ferromagnet; 0.3–0.6 in magnitude.',
  },
  async run(a, ctx) {
    const s = ctx.resolve(a.structure) as Structure;
    if (a.startingMagnetization.length !== s.symbols.length) {
      throw new Error(
        `magnetic_configuration: ${a.startingMagnetization.length} starting moments for ${s.symbols.length} atoms; give one per atom, in atom order.`,
      );
    }
    const { labels, startingMagnetization } = magneticLabels(s.symbols, a.startingMagnetization);
    if (new Set(labels).size > 10 || labels.some((l) => l.length > 3)) {
      throw new Error(
        'magnetic_configuration: pw.x species labels have at most 3 characters and this order needs more species than that allows; use fewer distinct starting moments per element.',
      );
    }
    const { labels: _old, ...plain } = s;
    const structure: Structure = { ...plain, labels };
    const up = a.startingMagnetization.filter((m) => m > 0).length;
    const down = a.startingMagnetization.filter((m) => m < 0).length;
    const order = up && down ? 'antiferromagnetic or ferrimagnetic' : up || down ? 'ferromagnetic' : 'non-magnetic';
    return {
      artifacts: [
        {
          kind: 'structure',
          name: ARTIFACT.magneticStructure,
          value: structure,
          meta: { formula: formulaOf(s.symbols), natoms: s.symbols.length, startingMagnetization, order },
        },
      ],
      summary:
        `${formulaOf(s.symbols)} with ${/^[aeiou]/.test(order) ? 'an' : 'a'} ${order} start (${up} up, ${down} down): species ${[...new Set(labels)].join(', ')}; ` +
        `make_pw_input startingMagnetization ${JSON.stringify(startingMagnetization)}`,
    };
  },
});

export const writeStructureFilesTool = defineTool({
  name: 'write_structure_files',
  description:
    'Write a structure artifact (a relaxed geometry, a crystal) as files in structure formats: cif, poscar, extxyz, xsf and pwx (pw.x cards); ' +
    'each file becomes an artifact of the run, with what the format cannot hold (fixed atoms in CIF, species labels) in its meta.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      structure: artifactRefSchema('The structure to write.', { kinds: ['structure'] }),
      formats: {
        type: 'array',
        items: enumSchema(Object.keys(STRUCTURE_FORMATS)),
        minItems: 1,
        uniqueItems: true,
        description: 'Default: every format.',
      },
      name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,60}$', description: 'File name without extension (default: the formula).' },
    },
    required: ['structure'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.structureFile],
  parameterJudge: false,
  async run(a, ctx) {
    const s = ctx.resolve(a.structure) as Structure;
    const formula = formulaOf(s.symbols);
    const name = a.name ?? formula;
    const formats = a.formats ?? Object.keys(STRUCTURE_FORMATS);
    const skipped: string[] = [];
    const artifacts = formats.flatMap((f) => {
      const { format, extension } = STRUCTURE_FORMATS[f]!;
      let text: string;
      try {
        text = formatStructure(s, format, { comment: `${formula} from ${a.structure}`, name });
      } catch (e) {
        // a format that cannot hold this structure (CIF of a slab): left out when every format was asked for
        if (a.formats) throw new Error(`write_structure_files: ${(e as Error).message}`);
        skipped.push(`${f} (${(e as Error).message.replace(/^cannot write \w+: /, '')})`);
        return [];
      }
      const losses = formatLosses(s, format);
      return [
        {
          kind: 'file' as const,
          name: ARTIFACT.structureFile,
          file: { name: `${name}.${extension}`, bytes: text },
          meta: { format, structure: a.structure, formula, natoms: s.symbols.length, ...(losses.length ? { notWritten: losses } : {}) },
        },
      ];
    });
    return {
      artifacts,
      summary: `${formula} (${a.structure}) written as ${artifacts.map((x) => x.file.name).join(', ')}${skipped.length ? `; not written: ${skipped.join('; ')}` : ''}`,
    };
  },
});
