// Every numeric key of the artifact shapes (the value and meta types src/core/artifacts/contracts.ts
// declares, walked with the TypeScript compiler) must have its unit read by the cards' fieldName,
// or be listed below as a number whose unit is not in its name (a count, an index, a ratio, or a
// unit the shape fixes elsewhere). A key with a new unit suffix fails here until the table reads it.
// Cost: one type-checked program of the core's artifact files, about 4 s.
import assert from 'node:assert/strict';
import path from 'node:path';
import ts from 'typescript';
import { fieldName } from '../../../../webview-ui/renderer/quantities';

/** Numeric keys without a unit in their name, by why. */
const NO_UNIT_IN_NAME: Record<string, readonly string[]> = {
  'counts, indices and integer settings': [
    'atom',
    'bfgsSteps',
    'bindingAtom',
    'bindingAtoms',
    'cellsPerConventional',
    'copies',
    'count',
    'divisor',
    'electronMaxstep',
    'electrons',
    'iteration',
    'kMesh',
    'kShift',
    'kpointCount',
    'maxIonicSteps',
    'natoms',
    'nspin',
    'number',
    'occupiedBands',
    'repeat',
    'size',
    'step',
    'steps',
    'surfaceAtoms',
    'surfaceBonds',
    'tags',
    'topLayer',
    'adsorbateStart',
    'fragments',
    'bonds',
    'surfaces',
  ],
  'ratios and dimensionless numbers': [
    'b0Prime',
    'cOverA',
    'coefficient',
    'fractionPositive',
    'mixingBeta',
    'spilling',
    'surfaceBondFactor',
    'abs',
    'rel',
    'polarization',
  ],
  'fractional or reciprocal-lattice coordinates': ['k', 'kpoints'],
  'Å by the Structure convention (positions, cell and surface vectors)': [
    'cell',
    'positions',
    'atomPositions',
    'centre',
    'e1',
    'e2',
    'normal',
    'example',
  ],
  "states/eV, the artifact's unit (DOS and PDOS curves)": ['dos', 'up', 'down', 'total', 'integrated', 's', 'p', 'd', 'f'],
  "a band edge's position along the band path (the plot's abscissa)": ['x'],
  'elementary charges (Löwdin charge of a site)': ['charge'],
  "the swept parameter's unit (Ry for ecutwfc, 1/Å for kspacing), named in the selection": ['value', 'chosenValue'],
  "the relaxation's threshold record": ['threshold'],
};

/** Every key whose type is a number, a list of numbers or a table of them, in every artifact's value and meta. */
function numericKeysOfArtifactShapes(): Map<string, string> {
  const file = path.resolve(__dirname, '../../../../src/core/artifacts/contracts.ts');
  const config = ts.getParsedCommandLineOfConfigFile(
    path.resolve(__dirname, '../../../../tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  )!;
  const program = ts.createProgram([file], config.options);
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file)!;
  let decl: ts.VariableDeclaration | undefined;
  sf.forEachChild(function find(n): void {
    if (ts.isVariableDeclaration(n) && n.name.getText(sf) === 'ARTIFACTS') decl = n;
    else n.forEachChild(find);
  });
  assert.ok(decl, 'ARTIFACTS declared in contracts.ts');
  const at = decl;
  const typeOf = (s: ts.Symbol) => checker.getTypeOfSymbolAtLocation(s, at);
  const nullish = ts.TypeFlags.Undefined | ts.TypeFlags.Null;
  const isNumeric = (t: ts.Type): boolean => {
    if (t.isUnion()) return t.types.filter((m) => !(m.flags & nullish)).every(isNumeric);
    if (t.flags & ts.TypeFlags.NumberLike) return true;
    if (checker.isArrayType(t) || checker.isTupleType(t)) {
      const args = checker.getTypeArguments(t as ts.TypeReference);
      return args.length > 0 && args.every(isNumeric);
    }
    return false;
  };
  const keys = new Map<string, string>();
  const seen = new Set<ts.Type>();
  const walk = (t: ts.Type, where: string): void => {
    if (seen.has(t)) return;
    seen.add(t);
    if (t.isUnion()) {
      for (const m of t.types) walk(m, where);
      return;
    }
    if (checker.isArrayType(t) || checker.isTupleType(t)) {
      for (const a of checker.getTypeArguments(t as ts.TypeReference)) walk(a, where);
      return;
    }
    if (!(t.flags & ts.TypeFlags.Object)) return;
    for (const p of checker.getPropertiesOfType(t)) {
      const pt = typeOf(p);
      if (isNumeric(pt)) {
        if (!keys.has(p.name)) keys.set(p.name, where);
      } else walk(pt, `${where}.${p.name}`);
    }
  };
  const artifacts = checker.getTypeAtLocation(at.name);
  for (const a of checker.getPropertiesOfType(artifacts)) {
    const shape = typeOf(a).getProperty('shape');
    assert.ok(shape, `ARTIFACTS.${a.name} has a shape`);
    const st = checker.getNonNullableType(typeOf(shape));
    for (const part of ['value', 'meta']) {
      const p = st.getProperty(part);
      if (p) walk(typeOf(p), `${a.name}.${part}`);
    }
  }
  return keys;
}

describe('artifact card units cover every numeric key of the artifact shapes', () => {
  it('reads a unit from every numeric key of every artifact value and meta, except the counts, ratios and coordinates listed with their reason', () => {
    const keys = numericKeysOfArtifactShapes();
    assert.ok(keys.size > 100, `only ${keys.size} numeric keys found: the walk of the shapes broke`);
    const listed = new Set(Object.values(NO_UNIT_IN_NAME).flat());
    const unread = [...keys]
      .filter(([k]) => !listed.has(k) && fieldName(k).unit === undefined)
      .map(([k, where]) => `${k} (${where}) → "${fieldName(k).label}"`);
    assert.deepEqual(unread, [], `numeric keys whose unit the cards do not read:\n${unread.join('\n')}`);
    // the list holds only keys the shapes still have, each without a unit suffix the table reads
    const stale = [...listed].filter((k) => !keys.has(k) || fieldName(k).unit !== undefined);
    assert.deepEqual(stale, [], 'keys listed as unitless that are gone or now have a unit');
  });
});
