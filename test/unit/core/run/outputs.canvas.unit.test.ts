import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCanvasFile } from '../../../../src/core/canvas/canvasFile';
import { createRun } from '../../../../src/core/run/directory';
import { writeRunOutputs } from '../../../../src/core/run/outputs';

describe("the run's canvas.dreams (CLI)", () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-outputs-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  async function plannedRun() {
    const run = await createRun(root, { objective: 'Lattice constant of fcc Al', slug: 'al' });
    await run.canvas.write(
      'plan',
      {
        objective: 'Lattice constant of fcc Al',
        version: 1,
        steps: [{ id: 'eos', title: 'Fit the equation of state', worker: 'dft', tool: 'fit_eos', status: 'done' }],
      },
      'test',
      { kind: 'agent', id: 'supervisor' },
    );
    const call = await run.registry.recordCall({
      tool: 'fit_eos',
      args: {},
      reasons: {},
      context: 'test',
      verdicts: [],
      agent: { role: 'dft' },
      step: 'eos',
    });
    await run.registry.registerArtifacts(call.id, [{ kind: 'scalar', name: 'lattice_constant', value: 4.04, unit: 'Å' }]);
    await run.registry.endCall(call.id, { status: 'ok' });
    return run;
  }

  it('holds the lab-notebook cells VS Code shows (summary, a cell per step), after the objective', async () => {
    const run = await plannedRun();
    const out = await writeRunOutputs(run, { bundle: false });
    const file = parseCanvasFile(fs.readFileSync(out.notebook, 'utf8'));
    assert.deepEqual(
      file.cells.map((c) => c.id),
      ['objective-1', 'summary', 'steps/eos'],
    );
    assert.match(file.cells[2]!.text, /^Step 1 of 1: Fit the equation of state — done\n/);
    assert.match(file.cells[2]!.text, /lattice_constant = 4\.04 Å/);
    assert.equal(file.run?.log, 'events.jsonl');
    await run.close();
  });

  it("keeps a user's Markdown cell when it is written again, and leaves a file it cannot read untouched", async () => {
    const run = await plannedRun();
    const out = await writeRunOutputs(run, { bundle: false });
    const file = parseCanvasFile(fs.readFileSync(out.notebook, 'utf8'));
    file.cells.push({ kind: 'markdown', id: 'markdown-1', text: 'PBE would give about 4.04 Å too.' });
    fs.writeFileSync(out.notebook, JSON.stringify(file));
    await writeRunOutputs(run, { bundle: false });
    const again = parseCanvasFile(fs.readFileSync(out.notebook, 'utf8'));
    assert.deepEqual(
      again.cells.map((c) => c.id),
      ['objective-1', 'markdown-1', 'summary', 'steps/eos'],
    );
    fs.writeFileSync(out.notebook, '{ not a canvas');
    await writeRunOutputs(run, { bundle: false });
    assert.equal(fs.readFileSync(out.notebook, 'utf8'), '{ not a canvas');
    await run.close();
  });
});
