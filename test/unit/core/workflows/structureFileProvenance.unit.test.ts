// A structure file's cell is the file's: inputs that look already loaded ({ file, name, format,
// sha256, structure }) but come from outside the loader (start_workflow, MCP, JSON) are read
// from the file again, and a sha256 that is not the file's is refused. Through the supervisor's
// start_workflow with the real Anthropic SDK against the scripted fake Messages API, and
// through prepareWorkflow for the slab and band-structure inputs.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnthropicProvider } from '../../../../src/core/llm/anthropic';
import { RunController } from '../../../../src/core/run/controller';
import type { RunSettings } from '../../../../src/core/run/session';
import { ObjectiveError } from '../../../../src/core/workflows';
import { parseObjectiveFile, prepareWorkflow } from '../../../../src/core/workflows/objective';
import { isLoadedStructureFile, loadedStructureFile, loadStructureFileInput } from '../../../../src/core/workflows/structureFileInput';
import type { ScriptStep } from '../../../fixtures/fake-anthropic/script';
import { FakeAnthropicApi } from '../../../fixtures/fake-anthropic/server';

const KEY = 'sk-ant-test-structure-provenance-0000';
const EXAMPLES = path.resolve('examples');
const NACL = path.join(EXAMPLES, 'NaCl.cif');
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
/** A cell no file here holds: a 3 Å cube with Na and Cl on its diagonal. */
const FORGED = {
  symbols: ['Na', 'Cl'],
  positions: [
    [0, 0, 0],
    [1.5, 1.5, 1.5],
  ],
  cell: [
    [3, 0, 0],
    [0, 3, 0],
    [0, 0, 3],
  ],
  pbc: [true, true, true],
};
const SUP = { system: 'You are the supervisor of DREAMS' };
const use = (name: string, input: Record<string, unknown>): ScriptStep => ({
  match: SUP,
  reply: { content: [{ type: 'tool_use', name, input }] },
});

function settings(runs: string): RunSettings {
  return {
    objective: { text: 'the lattice constant of the rock salt in examples/NaCl.cif, planned by the model' },
    offline: false,
    backend: 'local',
    approval: 'continue',
    pseudoDir: runs,
    pwCommand: 'pw.x',
    localConcurrency: 1,
    models: {},
    judges: false,
    budget: {},
  };
}

describe('structure file inputs from outside the loader', () => {
  it("start_workflow: a forged sha256 is refused, and a forged cell beside the file's sha256 is replaced by the file's cell", async () => {
    const loadedLooking = (sha: string) => ({
      workflow: 'lattice-constant',
      inputs: { structure: { file: NACL, name: 'NaCl.cif', format: 'cif', sha256: sha, structure: FORGED } },
    });
    const api = await FakeAnthropicApi.start({
      apiKey: KEY,
      script: { steps: [use('start_workflow', loadedLooking('0'.repeat(64))), use('start_workflow', loadedLooking(sha256(NACL)))] },
    });
    const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-structure-provenance-'));
    const provider = new AnthropicProvider({ apiKey: KEY, baseURL: api.baseURL, retry: { baseDelayMs: 10, maxDelayMs: 50 } });
    const controller = await RunController.start({ runsDir: runs, settings: settings(runs) }, { provider });
    try {
      // the run goes on to the plan's first step, which the script does not answer: only the planning is looked at
      await controller.run().catch(() => undefined);
      const events = [...controller.session.run.log.events()];
      const answers = api.requests.map((r) => JSON.stringify((r.body?.messages as unknown[] | undefined)?.at(-1) ?? ''));
      const refusal = answers.find((m) => /sha256/.test(m) && /not the 0{64} given/.test(m));
      assert.ok(refusal, `no refusal of the forged sha256 reached the model: ${answers.join('\n')}`);
      assert.match(refusal, new RegExp(`NaCl\\.cif has sha256 ${sha256(NACL)}`));
      assert.match(refusal, /the file changed since it was read, or the sha256 is not this file's/);
      const recorded = events.filter((e) => e.kind === 'workflow.inputs');
      assert.equal(recorded.length, 1, 'only the second start_workflow made a plan');
      const inputs = recorded[0]!.payload.inputs as { structure: { sha256: string; structure: { cell: number[][]; symbols: string[] } } };
      assert.equal(inputs.structure.sha256, sha256(NACL));
      const file = loadStructureFileInput({ file: NACL }, EXAMPLES, 'inputs.structure');
      assert.deepEqual(inputs.structure.structure.cell, file.structure.cell, "the plan holds the file's cell, not the one given");
      assert.notDeepEqual(inputs.structure.structure.cell, FORGED.cell);
      assert.equal(inputs.structure.structure.symbols.length, file.structure.symbols.length);
    } finally {
      await controller.close();
      await api.stop();
    }
  });

  it("trusts only the loader's own value in this process: the same fields through JSON are read again", () => {
    const loaded = loadStructureFileInput({ file: 'NaCl.cif' }, EXAMPLES, 'inputs.structure');
    assert.equal(isLoadedStructureFile(loaded), true);
    assert.equal(loadedStructureFile(loaded, 'inputs.structure'), loaded, 'the loaded value is used as it is');
    const copied = JSON.parse(JSON.stringify({ ...loaded, structure: FORGED }));
    assert.equal(isLoadedStructureFile(copied), false);
    const read = loadedStructureFile(copied, 'inputs.structure');
    assert.deepEqual(read.structure.cell, loaded.structure.cell);
    assert.equal(read.name, 'NaCl.cif');
    // a name that names another file is not taken
    assert.equal(loadedStructureFile({ file: NACL, name: 'GaAs.cif' }, 'inputs.structure').name, NACL);
  });

  it("prepareWorkflow (MCP, start_workflow): a slab's given structure is never searched, a band structure's given species never used", () => {
    const slabFile = path.join(EXAMPLES, 'slabs', 'pt111-slab.cif');
    const yaml = path.join(EXAMPLES, 'pt111-cif-search.yaml');
    const objective = parseObjectiveFile(fs.readFileSync(yaml, 'utf8'), yaml);
    const slab = { file: slabFile, sha256: sha256(slabFile), structure: { ...FORGED, symbols: ['Pt', 'Pt'] } };
    const prepared = prepareWorkflow('adsorption-search', JSON.parse(JSON.stringify({ ...objective.inputs, slab })), {});
    const searched = prepared.steps[0]!.args!.structure as { symbols: string[]; cell: number[][] };
    assert.deepEqual(searched.cell, (objective.inputs!.slab as { structure: { cell: number[][] } }).structure.cell);
    assert.notDeepEqual(searched.cell, FORGED.cell);
    assert.throws(
      () => prepareWorkflow('adsorption-search', { ...objective.inputs, slab: { ...slab, sha256: 'f'.repeat(64) } }, {}),
      (e: unknown) =>
        e instanceof ObjectiveError &&
        /inputs\.slab\.sha256: .*pt111-slab\.cif has sha256 [0-9a-f]{64}, not the f{64} given/.test(e.message),
    );
    const bands = prepareWorkflow(
      'band-structure',
      { structureFile: NACL, structureSha256: sha256(NACL), structureSpecies: ['Si'], ecutwfcRy: 30, kSpacingPerAngstrom: 0.3 },
      {},
    );
    assert.deepEqual((bands.inputs as { species: string[] }).species, ['Na', 'Cl']);
    assert.throws(
      () => prepareWorkflow('band-structure', { structureFile: NACL, structureSha256: '0'.repeat(64), structureSpecies: ['Na', 'Cl'] }, {}),
      (e: unknown) =>
        e instanceof ObjectiveError && /inputs\.structureSha256: .*NaCl\.cif has sha256 [0-9a-f]{64}, not the 0{64} given/.test(e.message),
    );
  });
});
