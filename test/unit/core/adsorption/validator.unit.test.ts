import assert from 'node:assert/strict';
import { adsorbate } from '../../../../src/core/adsorption/adsorbate';
import { parseDecision, type Hypothesis } from '../../../../src/core/adsorption/hypothesis';
import { findSites } from '../../../../src/core/adsorption/sites';
import { standardiseSlab } from '../../../../src/core/adsorption/slab';
import { hypothesisKey, validateHypothesis, type ValidationContext } from '../../../../src/core/adsorption/validator';
import { fcc111 } from './fixtures';

describe('hypothesis schema and validator', () => {
  const std = standardiseSlab(fcc111('Pt'));
  const surface = findSites(std.slab, std.frame);
  const ctx = (over: Partial<ValidationContext> = {}): ValidationContext => ({
    adsorbate: adsorbate('OH'),
    surface,
    slabSymbols: std.slab.symbols,
    forbid: new Set(),
    tested: new Set(),
    ...over,
  });
  const fcc = surface.sites.filter((s) => s.hollowType === 'fcc');
  const hcp = surface.sites.find((s) => s.hollowType === 'hcp')!;
  const bridge = surface.sites.find((s) => s.kind === 'bridge')!;
  const top = surface.topLayer;
  const h = (over: Partial<Hypothesis>): Hypothesis => ({
    action: 'propose',
    siteType: 'hollow',
    surfaceAtoms: [...fcc[0]!.surfaceAtoms],
    bindingAtoms: [0],
    orientation: 'upright',
    ...over,
  });
  const reasons = (r: ReturnType<typeof validateHypothesis>) => (r.ok ? [] : r.reasons).join(' ');

  it('the schema rejects malformed proposals with every problem named', () => {
    const r = parseDecision({ action: 'propose', siteType: 'hollo', surfaceAtoms: [1, 1], bindingAtoms: [] });
    assert.equal(r.ok, false);
    const msg = r.ok ? '' : r.error;
    assert.match(msg, /siteType must be equal to one of the allowed values \(ontop, bridge, hollow\)/);
    assert.match(msg, /surfaceAtoms must NOT have duplicate items/);
    assert.match(msg, /bindingAtoms must NOT have fewer than 1 items/);
    assert.match(msg, /must have required property 'orientation'/);
    assert.equal(parseDecision({ action: 'terminate' }).ok, false);
    assert.equal(parseDecision({ action: 'terminate', reason: 'converged' }).ok, true);
  });

  it('accepts a valid hollow and returns the named site first, then its equivalents, at most 8', () => {
    const r = validateHypothesis(h({}), ctx());
    assert.ok(r.ok, reasons(r));
    assert.deepEqual(r.sites[0]!.surfaceAtoms.sort(), [...fcc[0]!.surfaceAtoms].sort());
    assert.equal(r.sites.length, 8);
    assert.ok(r.sites.every((s) => s.fingerprint === fcc[0]!.fingerprint));
  });

  it('binding atoms must exist and be heavy unless the adsorbate has no heavy atom', () => {
    assert.match(reasons(validateHypothesis(h({ bindingAtoms: [5] }), ctx())), /binding atom 5 does not exist: OH has atoms 0–1/);
    assert.match(
      reasons(validateHypothesis(h({ bindingAtoms: [1] }), ctx())),
      /binding atom 1 is hydrogen; OH binds through a heavy atom: choose from 0 \(O\)/,
    );
    assert.ok(validateHypothesis(h({ bindingAtoms: [0] }), ctx({ adsorbate: adsorbate('H') })).ok);
  });

  it('counts must fit the site type: ontop 1 + 1, bridge 1–2 + 1–2, hollow 1–2 + ≥3', () => {
    assert.match(
      reasons(validateHypothesis(h({ siteType: 'ontop', surfaceAtoms: [top[0]!, top[1]!] }), ctx())),
      /ontop hypothesis needs 1 surface atom/,
    );
    assert.match(
      reasons(validateHypothesis(h({ siteType: 'hollow', surfaceAtoms: [...bridge.surfaceAtoms] }), ctx())),
      /hollow hypothesis needs 3 or more surface atom/,
    );
    assert.match(
      reasons(
        validateHypothesis(h({ siteType: 'ontop', surfaceAtoms: [top[0]!], bindingAtoms: [0, 1] }), ctx({ adsorbate: adsorbate('CO') })),
      ),
      /ontop hypothesis needs 1 binding atom/,
    );
    assert.ok(
      validateHypothesis(h({ siteType: 'bridge', surfaceAtoms: [bridge.surfaceAtoms[0]!] }), ctx()).ok,
      'a bridge may name one of its atoms',
    );
  });

  it('named atoms must be in the top layer and form a site of that type', () => {
    const below = std.slab.symbols.map((_, i) => i).find((i) => !top.includes(i))!;
    assert.match(
      reasons(validateHypothesis(h({ siteType: 'ontop', surfaceAtoms: [below] }), ctx())),
      new RegExp(`surface atom\\(s\\) ${below} are not in the top layer`),
    );
    const far = top.filter((i) => !fcc[0]!.surfaceAtoms.includes(i)).slice(0, 1);
    assert.match(
      reasons(validateHypothesis(h({ surfaceAtoms: [fcc[0]!.surfaceAtoms[0]!, fcc[0]!.surfaceAtoms[1]!, ...far] }), ctx())),
      /do not form a hollow site/,
    );
  });

  it('refuses a forbidden site and a repeat by site fingerprint, not by element symbols', () => {
    assert.match(
      reasons(validateHypothesis(h({}), ctx({ forbid: new Set([fcc[0]!.fingerprint]) }))),
      /is forbidden: a configuration planned there relaxed away before/,
    );
    const tested = new Set([hypothesisKey(fcc[0]!.fingerprint, { bindingAtoms: [0], orientation: 'upright' })]);
    // another fcc hollow (other atoms, same fingerprint) is a repeat ...
    assert.match(
      reasons(validateHypothesis(h({ surfaceAtoms: [...fcc[3]!.surfaceAtoms] }), ctx({ tested }))),
      /repeats one already relaxed/,
    );
    // ... an hcp hollow of the same three Pt elements is not
    assert.ok(validateHypothesis(h({ surfaceAtoms: [...hcp.surfaceAtoms] }), ctx({ tested })).ok);
    // nor is the same site in another orientation
    assert.ok(validateHypothesis(h({ orientation: 'tilted' }), ctx({ tested })).ok);
  });
});
