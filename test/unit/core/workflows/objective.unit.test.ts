import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseObjectiveFile, parseObjectiveText } from '../../../../src/core/workflows/objective';
import { ObjectiveError } from '../../../../src/core/workflows/types';

const problems = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ObjectiveError, `expected an ObjectiveError, got ${(e as Error).name}: ${(e as Error).message}`);
    return e.message;
  }
  assert.fail('expected the objective to be refused');
};

describe('objectives', () => {
  it('reads the example objective file shipped in examples/', () => {
    const file = path.resolve(__dirname, '../../../../examples/al-lattice-constant.yaml');
    const o = parseObjectiveFile(fs.readFileSync(file, 'utf8'), file);
    assert.equal(o.workflow, 'lattice-constant');
    assert.equal(o.inputs!.element, 'Al');
    assert.equal(o.text, 'Lattice constant of fcc Al with LDA (Al.pz-vbc.UPF)');
  });

  it('names a lattice-constant study without a functional by the one it runs with (PBE), never "undefined"', () => {
    const o = parseObjectiveFile(
      JSON.stringify({ workflow: 'lattice-constant', inputs: { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05 } }),
      'the objective',
    );
    assert.equal(o.text, 'Lattice constant of fcc Al (PBE)');
  });

  it('names the study of every example objective file that has no objective line, from its inputs', () => {
    const examples = path.resolve(__dirname, '../../../../examples');
    const lines: Record<string, string> = {};
    for (const f of fs.readdirSync(examples).filter((n) => n.endsWith('.yaml'))) {
      const file = path.join(examples, f);
      lines[f] = parseObjectiveFile(fs.readFileSync(file, 'utf8').replace(/^objective:.*$/m, ''), file).text;
    }
    assert.equal(lines['si-band-structure.yaml'], 'band structure of diamond Si with PBE');
    assert.equal(lines['al-dos.yaml'], 'density of states of fcc Al with PZ');
    assert.equal(lines['copt111-toy.yaml'], 'CO/Pt(111) site preference ΔBE = E_ads(ontop) − E_ads(fcc) (PBE, p(1×1))');
    assert.equal(lines['beef-copt111.yaml'], 'BEEF-vdW ensemble of ΔBE for CO/Pt(111) p(2×2) on PBE-relaxed geometries');
    assert.equal(lines['al-lattice-constant.yaml'], 'Lattice constant of fcc Al (PZ, Al.pz-vbc.UPF)');
    assert.equal(
      lines['co-pt111-search-pbe.yaml'],
      'Most stable adsorption configuration of CO on Pt(111) (AdsMind closed loop, pw.x PBE)',
    );
    assert.equal(lines['fe-magnetic-order.yaml'], 'magnetic order of bcc Fe (ferromagnetic vs antiferromagnetic) with PBE');
  });

  it('names the place of a YAML syntax error', () => {
    assert.match(
      problems(() => parseObjectiveFile('workflow: lattice-constant\ninputs:\n  element: [Al\n', 'a.yaml')),
      /a\.yaml is not valid YAML:\n- line \d+, column \d+/,
    );
  });

  it('says which field is wrong, what it must be, and suggests the field meant', () => {
    const msg = problems(() =>
      parseObjectiveFile(
        ['workflow: lattice-constant', 'inputs:', '  element: Al', '  structure: FCC', '  latticeConstant: 4.05'].join('\n'),
        'al.yaml',
      ),
    );
    assert.match(msg, /inputs\.structure: must be one of fcc, bcc, diamond, hcp, sc, rocksalt, zincblende, cesiumchloride \(got "FCC"\)/);
    assert.match(msg, /inputs: "latticeConstant" is not a known field \(did you mean "latticeConstantAngstrom"\?\)/);
    assert.match(msg, /inputs: latticeConstantAngstrom is missing; add it/);
  });

  it('refuses an unknown workflow with the closest one', () => {
    assert.match(
      problems(() => parseObjectiveFile('workflow: lattice-constants\ninputs: {}\n', 'x.yaml')),
      /workflow "lattice-constants" is not a built-in workflow \(did you mean "lattice-constant"\?\)/,
    );
  });

  it('reads run preferences and refuses a bad budget field', () => {
    const o = parseObjectiveFile(
      'workflow: lattice-constant\ninputs: {element: Al, structure: fcc, latticeConstantAngstrom: 4.05}\nrun: {approval: wait, pseudoDir: ./pseudo, budget: {maxJobs: 40}}\n',
      'r.yaml',
    );
    assert.deepEqual(o.run, { approval: 'wait', pseudoDir: './pseudo', budget: { maxJobs: 40 } });
    assert.match(
      problems(() =>
        parseObjectiveFile(
          'workflow: lattice-constant\ninputs: {element: Al, structure: fcc, latticeConstantAngstrom: 4.05}\nrun: {budget: {maxJob: 40}}\n',
          'r.yaml',
        ),
      ),
      /"maxJob" is not a known field \(did you mean "maxJobs"\?\)/,
    );
  });

  it('reads a sentence into a workflow and its inputs, or asks for what is missing', () => {
    const o = parseObjectiveText('lattice constant of fcc Al, a0 = 4.05 Å, LDA');
    assert.equal(o.workflow, 'lattice-constant');
    assert.deepEqual(o.inputs, { element: 'Al', structure: 'fcc', latticeConstantAngstrom: 4.05, functional: 'PZ' });
    assert.match(
      problems(() => parseObjectiveText('lattice constant of Al with PBE')),
      /does not state structure, latticeConstantAngstrom/,
    );
    // A model supervisor can fill in what the sentence leaves out: it gets the sentence to plan from.
    assert.deepEqual(parseObjectiveText('lattice constant of Al with PBE', { forModel: true }), {
      text: 'lattice constant of Al with PBE',
    });
    const free = parseObjectiveText('Which Pt facet binds CO more strongly?');
    assert.equal(free.workflow, undefined);
    assert.match(
      problems(() => parseObjectiveText('  ')),
      /the objective is empty/,
    );
  });
});
