// A band-structure run recorded before the settings were nested under `settings`: its workflow
// event holds them flat (`ecutwfcRy` beside `species`). The fixture is the event log of a toy run
// (Si, PBE, 12 Ry, 0.4 1/Å) made by the earlier version and cut where its process would have died
// just before the report step; resuming it must compose the report from those inputs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunController } from '../../../../src/core/run/controller';
import { readRecordedElectronicInputs, resolveElectronicInputs } from '../../../../src/core/workflows/electronicStructure/inputs';
import { workflowEnvironment } from '../../../../src/core/workflows/environment';
import type { CanvasEvent } from '../../../../src/core/canvas/types';

const FIXTURE = path.resolve(__dirname, '../../../fixtures/workflows/runs/si-bands-flat-settings');
const PSEUDO_DIR = '/usr/share/espresso/pseudo';

const recorded = (events: readonly CanvasEvent[]): Record<string, unknown> => {
  const e = events.find((x) => x.kind === 'workflow.inputs');
  assert.ok(e && e.kind === 'workflow.inputs', 'the run recorded its workflow inputs');
  return e.payload.inputs;
};

describe('band-structure inputs recorded flat by an earlier version', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-flat-settings-')), 'run');
    fs.cpSync(FIXTURE, dir, { recursive: true });
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('are read into the nested shape the resolver makes now for the same objective and machine', () => {
    const lines = fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
    const flat = recorded(lines.map((l) => JSON.parse(l) as CanvasEvent));
    assert.equal(flat.ecutwfcRy, 12, 'the fixture holds the old, flat shape');
    assert.equal(flat.settings, undefined);
    const now = resolveElectronicInputs(
      {
        element: 'Si',
        functional: 'PBE',
        pseudopotentials: { Si: 'Si.pbe-rrkj.UPF' },
        ecutwfcRy: 12,
        kSpacingPerAngstrom: 0.4,
        pointsPerInverseAngstrom: 10,
      },
      workflowEnvironment({ pseudoDir: PSEUDO_DIR }),
    );
    // the extension budget became a setting after this run was recorded: it is planned without one, as it was
    const { extensionBudgetSeconds, ...settingsThen } = now.settings;
    assert.equal(extensionBudgetSeconds, 1800);
    assert.deepEqual(readRecordedElectronicInputs(flat), { ...now, settings: settingsThen });
    assert.equal(readRecordedElectronicInputs(now as unknown as Record<string, unknown>), now, 'nested inputs are read as they are');
  });

  it('resume: the report is composed from them, with the functional and the settings as given', async () => {
    const c = await RunController.resume(dir, {});
    try {
      const result = await c.run();
      assert.equal(result.state, 'completed', result.reason);
      const events = c.session.run.log.events();
      const call = [...events].reverse().find((e) => e.kind === 'provenance.call' && e.payload.tool === 'write_report');
      assert.ok(call && call.kind === 'provenance.call', 'the resumed run wrote its report');
      const args = call.payload.args as { title: { value: string }; text: { value: string } };
      assert.equal(args.title.value, 'Band structure of diamond Si (a = 5.431 Å) with PBE');
      assert.match(args.text.value, /Settings: PBE, ecutwfc = 12 Ry as given; SCF k-spacing 0\.4 1\/Å as given; fixed occupations\./);
      assert.match(args.text.value, /The PBE band gap is \*\*0\.579 eV, indirect\*\*/);
      assert.equal(recorded(events).ecutwfcRy, 12, 'the recorded inputs are not rewritten');
    } finally {
      await c.close();
    }
  });
});
