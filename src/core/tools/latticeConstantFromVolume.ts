/**
 * lattice_constant_from_volume: the lattice parameters at the EOS V0 through the symmetry of the
 * cell the series scaled (dft/latticeFromCell.ts): a (Å) for every crystal, and the full set (a, b,
 * c, angles, c/a, volumes, space group) as lattice_parameters, which a non-cubic crystal reports.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { latticeAtVolume } from '../dft/latticeFromCell';
import type { Structure } from '../dft/types';
import { artifactRefSchema } from '../guard/schemaAnnotations';
import { ARTIFACT, type EosFitValue, type LatticeParametersValue } from '../artifacts/shapes';

export const latticeConstantFromVolumeTool = defineTool({
  name: 'lattice_constant_from_volume',
  description:
    'Turn the equilibrium volume V0 of an EOS fit into lattice parameters, through the symmetry of the cell the EOS series ' +
    'scaled (its standardised conventional cell): a (Å) for a cubic crystal, a, c/a (and b, c, angles) and the volume for any ' +
    'other. Works for compounds and any cell (primitive, conventional, from a file); bravais and cOverA, when given, are checked against the cell.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      eosFit: artifactRefSchema('The EOS fit (fit_eos output).', { names: [ARTIFACT.eosFit], kinds: ['table'] }),
      structure: artifactRefSchema('The structure the EOS series scaled (its symmetry decides the V–a relation).', {
        kinds: ['structure'],
      }),
      bravais: {
        type: 'string',
        enum: ['fcc', 'bcc', 'diamond', 'rocksalt', 'zincblende', 'cesiumchloride', 'sc', 'hcp'],
        description: 'Optional: the Bravais lattice you expect; checked against the symmetry of the cell.',
      },
      cOverA: {
        type: 'number',
        exclusiveMinimum: 0,
        description: 'Optional: the c/a of the cell the series scaled; checked against the cell.',
      },
    },
    required: ['eosFit', 'structure'],
    additionalProperties: false,
  },
  rules: ['lattice-uses-cell-symmetry'],
  outputs: [ARTIFACTS.latticeConstant, ARTIFACTS.latticeParameters],
  parameterNotes: { bravais: 'leave it out: the symmetry of the cell decides.' },
  async run(args, ctx) {
    const fit = ctx.resolve(args.eosFit) as EosFitValue;
    const structure = ctx.resolve(args.structure) as Structure;
    const l = latticeAtVolume(structure, fit.v0Angstrom3);
    const sg = `${l.spaceGroup.symbol} (${l.spaceGroup.number})`;
    const parameters: LatticeParametersValue = {
      aAngstrom: l.aAngstrom,
      bAngstrom: l.bAngstrom,
      cAngstrom: l.cAngstrom,
      alphaDegrees: l.alphaDegrees,
      betaDegrees: l.betaDegrees,
      gammaDegrees: l.gammaDegrees,
      cOverA: l.cOverA,
      volumePerCellAngstrom3: l.volumePerCellAngstrom3,
      conventionalVolumeAngstrom3: l.conventionalVolumeAngstrom3,
      cellsPerConventional: l.cellsPerConventional,
      spaceGroup: l.spaceGroup,
      cubic: l.cubic,
      relation: l.relation,
    };
    const meta = {
      relation: l.relation,
      spaceGroup: sg,
      crystalSystem: l.spaceGroup.crystalSystem,
      symprecAngstrom: l.symprecAngstrom,
      v0Angstrom3: fit.v0Angstrom3,
      ...(args.bravais ? { bravais: args.bravais } : {}),
    };
    return {
      artifacts: [
        {
          kind: 'scalar',
          name: ARTIFACT.latticeConstant,
          value: l.aAngstrom,
          unit: 'Å',
          inputs: [args.eosFit, args.structure],
          meta: { ...meta, ...(l.cubic ? {} : { cAngstrom: l.cAngstrom, cOverA: l.cOverA }) },
        },
        { kind: 'table', name: ARTIFACT.latticeParameters, value: parameters, inputs: [args.eosFit, args.structure], meta },
      ],
      summary: l.cubic
        ? `a = ${l.aAngstrom.toFixed(4)} Å from V0 = ${fit.v0Angstrom3.toFixed(4)} Å^3 (${sg}; ${l.relation})`
        : `a = ${l.aAngstrom.toFixed(4)} Å, c = ${l.cAngstrom.toFixed(4)} Å, c/a = ${l.cOverA.toFixed(4)}, V = ${l.conventionalVolumeAngstrom3.toFixed(4)} Å^3 per conventional cell (${sg})`,
    };
  },
});
