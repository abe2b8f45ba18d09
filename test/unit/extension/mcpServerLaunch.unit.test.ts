// The launch the extension hands VS Code's MCP support for each workspace folder: the shipped
// CLI bound to the folder's runs directory, started from the folder; read-only (--read-only, the
// reading tools only) in an untrusted workspace, and labelled and versioned so, so that trusting
// the workspace offers a different server.
import assert from 'node:assert/strict';
import { mcpServerLaunches } from '../../../src/extension/mcpServerLaunch';

const folders = [
  { name: 'al-study', fsPath: '/home/u/al-study' },
  { name: 'cu', fsPath: '/home/u/cu' },
];

describe('the dreams mcp launch the extension registers with VS Code', () => {
  it('starts the shipped CLI for each folder, bound to its runs directory, from the folder', () => {
    const [al, cu] = mcpServerLaunches('/ext', '0.3.0', folders, true, '/usr/bin/node');
    assert.deepEqual(al, {
      label: 'DREAMS (al-study)',
      command: '/usr/bin/node',
      args: ['/ext/dist/cli.js', 'mcp', '--runs-dir', '/home/u/al-study/runs', '--workspace', '/home/u/al-study'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      cwd: '/home/u/al-study',
      version: '0.3.0',
    });
    assert.deepEqual(cu!.args.slice(2), ['--runs-dir', '/home/u/cu/runs', '--workspace', '/home/u/cu']);
  });

  it('offers only the reading tools in an untrusted workspace, under another label and version', () => {
    const [al] = mcpServerLaunches('/ext', '0.3.0', folders, false, '/usr/bin/node');
    assert.equal(al!.args.at(-1), '--read-only');
    assert.equal(al!.label, 'DREAMS (al-study) (read-only)');
    assert.equal(al!.version, '0.3.0-read-only');
  });

  it("passes the user's pw.x command, pseudopotential directory and cluster profiles in a trusted workspace only", () => {
    const settings = { pwCommand: 'mpirun -np 2 pw.x', pseudoDir: '/opt/upf', clusterProfiles: '/store/mcp-cluster-profiles.json' };
    const [al] = mcpServerLaunches('/ext', '0.3.0', folders, true, '/usr/bin/node', settings);
    assert.deepEqual(al!.args.slice(2), [
      '--runs-dir',
      '/home/u/al-study/runs',
      '--workspace',
      '/home/u/al-study',
      '--pw-command',
      'mpirun -np 2 pw.x',
      '--pseudo-dir',
      '/opt/upf',
      '--cluster-profiles',
      '/store/mcp-cluster-profiles.json',
    ]);
    const [untrusted] = mcpServerLaunches('/ext', '0.3.0', folders, false, '/usr/bin/node', settings);
    assert.deepEqual(untrusted!.args.slice(2), ['--runs-dir', '/home/u/al-study/runs', '--workspace', '/home/u/al-study', '--read-only']);
  });

  it('labels two folders of one name apart by their parent folder, and by a number when that is shared too', () => {
    const same = [
      { name: 'app', fsPath: '/home/u/a/app' },
      { name: 'app', fsPath: '/home/u/b/app' },
      { name: 'cu', fsPath: '/home/u/cu' },
      { name: 'app', fsPath: '/srv/a/app' },
    ];
    assert.deepEqual(
      mcpServerLaunches('/ext', '0.3.0', same, true).map((l) => l.label),
      ['DREAMS (a/app 1)', 'DREAMS (b/app)', 'DREAMS (cu)', 'DREAMS (a/app 2)'],
    );
    assert.deepEqual(
      mcpServerLaunches('/ext', '0.3.0', same.slice(0, 2), false).map((l) => l.label),
      ['DREAMS (a/app) (read-only)', 'DREAMS (b/app) (read-only)'],
    );
  });

  it('offers nothing without a workspace folder', () => {
    assert.deepEqual(mcpServerLaunches('/ext', '0.3.0', [], true), []);
  });
});
