/** lattice_constant_from_volume: a from the EOS V0 through the cell's symmetry (dft/lattice.ts). */
import { latticeConstantFromVolume } from '../dft/lattice';
import type { BravaisKind, Structure } from '../dft/types';
import { cellShape } from '../guard/rules/latticeUsesCellSymmetry';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import type { GuardedToolSpec } from '../guard/toolSpec';
import { ARTIFACT, type EosFitValue } from '../artifacts/shapes';

interface Args {
  eosFit: string;
  structure: string;
  bravais: BravaisKind;
  cOverA?: number;
}

export const latticeConstantFromVolumeTool: GuardedToolSpec = {
  name: 'lattice_constant_from_volume',
  description:
    'Turn the equilibrium volume V0 of an EOS fit into the lattice constant a (Å), using the Bravais lattice and the cell ' +
    'the EOS series was computed on (primitive or conventional is read from that structure).',
  roles: ['dft'],
  schema: {
    type: 'object',
    properties: {
      eosFit: artifactRefSchema('The EOS fit (fit_eos output).', { names: [ARTIFACT.eosFit], kinds: ['table'] }),
      structure: artifactRefSchema('The structure the EOS series scaled (its cell decides the V–a relation).', { kinds: ['structure'] }),
      bravais: { type: 'string', enum: ['fcc', 'bcc', 'diamond', 'rocksalt', 'sc', 'hcp'], description: 'Bravais lattice of the crystal.' },
      cOverA: { type: 'number', exclusiveMinimum: 0, description: 'hcp only: the c/a ratio held fixed in the series.' },
    },
    required: ['eosFit', 'structure', 'bravais'],
    additionalProperties: false,
  },
  rules: ['lattice-uses-cell-symmetry'],
  parameterNotes: { bravais: 'the lattice the structure was built as.' },
  async run(raw, ctx) {
    const args = raw as unknown as Args;
    const fit = ctx.resolve(args.eosFit) as EosFitValue;
    const structure = ctx.resolve(args.structure) as Structure;
    const shape = cellShape(structure.cell);
    const cell = shape === 'cubic' ? 'conventional' : 'primitive';
    const a = latticeConstantFromVolume(fit.v0Angstrom3, { bravais: args.bravais, cell, ...(args.cOverA ? { cOverA: args.cOverA } : {}) });
    return {
      artifacts: [{
        kind: 'scalar', name: ARTIFACT.latticeConstant, value: a.aAngstrom, unit: 'Å',
        inputs: [args.eosFit, args.structure],
        meta: { relation: a.relation, ...(a.cAngstrom ? { cAngstrom: a.cAngstrom } : {}), bravais: args.bravais, v0Angstrom3: fit.v0Angstrom3 },
      }],
      summary: `a = ${a.aAngstrom.toFixed(4)} Å from V0 = ${fit.v0Angstrom3.toFixed(4)} Å^3 (${a.relation})`,
    };
  },
};
