// Settings a shared folder or canvas cannot turn against the user: the scopes declared in
// package.json, and a canvas's run block that may tighten the approval policy and budget only.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  APPLICATION_SETTINGS,
  ignoredSettingsMessage,
  MACHINE_SETTINGS,
  tightenApproval,
  tightenBudget,
  userOnlyKeysIn,
} from '../../../src/extension/settingsPolicy';

const root = path.resolve(__dirname, '../../..');
const props = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  }
).contributes.configuration.properties;

describe('settings a shared folder or canvas cannot change', () => {
  it('declares machine scope for what runs commands here or on a cluster, application scope for what is spent and approved', () => {
    for (const k of MACHINE_SETTINGS) assert.equal(props[`dreams.${k}`]?.scope, 'machine', `dreams.${k}`);
    for (const k of APPLICATION_SETTINGS) assert.equal(props[`dreams.${k}`]?.scope, 'application', `dreams.${k}`);
    // backend names one of the user's own (machine-scoped) profiles: a workspace may choose among them
    assert.equal(props['dreams.backend']?.scope, 'machine-overridable');
    const userOnly = Object.entries(props)
      .filter(([, v]) => v.scope === 'machine' || v.scope === 'application')
      .map(([k]) => k.slice('dreams.'.length))
      .sort();
    assert.deepEqual(userOnly, [...MACHINE_SETTINGS, ...APPLICATION_SETTINGS].sort());
  });

  it('a canvas may make the approval policy stricter, and a looser one is ignored with what to do', () => {
    assert.deepEqual(tightenApproval('continue', 'wait'), { value: 'wait', ignored: [] });
    assert.deepEqual(tightenApproval('auto-approve', 'continue'), { value: 'continue', ignored: [] });
    assert.deepEqual(tightenApproval('wait', undefined), { value: 'wait', ignored: [] });
    assert.deepEqual(tightenApproval('wait', 'wait'), { value: 'wait', ignored: [] });
    const loose = tightenApproval('wait', 'auto-approve');
    assert.equal(loose.value, 'wait');
    assert.equal(loose.ignored.length, 1);
    assert.match(
      loose.ignored[0]!,
      /^run\.approval: auto-approve was ignored: your setting dreams\.approvalPolicy is "wait", and a canvas may only make it stricter \("wait"\)\. The run uses "wait"\. To allow "auto-approve", change dreams\.approvalPolicy in your user settings\.$/,
    );
    assert.match(tightenApproval('continue', 'auto-approve').ignored[0]!, /stricter \("wait" or "continue"\)/);
  });

  it('a canvas may lower a budget limit or add one, never raise one', () => {
    const r = tightenBudget({ maxCostUsd: 5, maxJobs: 40 }, { maxCostUsd: 50, maxJobs: 10, maxTokens: 1_000_000 });
    assert.deepEqual(r.value, { maxCostUsd: 5, maxJobs: 10, maxTokens: 1_000_000 });
    assert.equal(r.ignored.length, 1);
    assert.match(
      r.ignored[0]!,
      /^run\.budget\.maxCostUsd: 50 was ignored: your setting dreams\.budget\.maxCostUsd limits cost \(USD\) to 5/,
    );
    assert.deepEqual(tightenBudget({}, undefined), { value: {}, ignored: [] });
  });

  it('finds the user-only settings a workspace settings file sets, language blocks too, and nothing else', () => {
    assert.deepEqual(
      userOnlyKeysIn({
        'dreams.pwCommand': 'evil',
        'dreams.qeVersion': '7.2',
        'dreams.backend': 'hpc1',
        'editor.tabSize': 2,
        '[qe-input]': { 'dreams.clusters': [] },
        'dreams.budget': {},
      }),
      ['dreams.budget', 'dreams.clusters', 'dreams.pwCommand'],
    );
    assert.deepEqual(userOnlyKeysIn(undefined), []);
    assert.deepEqual(userOnlyKeysIn([1, 2]), []);
    assert.match(
      ignoredSettingsMessage(['dreams.clusters', 'dreams.pwCommand'], '.vscode/settings.json'),
      /^DREAMS ignores dreams\.clusters, dreams\.pwCommand in \.vscode\/settings\.json: they can run commands/,
    );
  });
});
