// registerDreamsMcpServers with a stand-in for the VS Code API (the ordinary vscode tier's VS Code,
// 1.100.3, does not start MCP servers, so what the provider offers is checked here): the servers it
// offers per workspace folder, read-only until the workspace is trusted and again with the acting
// tools once it is; in a trusted workspace the user's pw.x command, pseudopotential directory and
// cluster profiles as flags and the stored API key in the environment only, added when VS Code
// starts the server; the definitions offered anew when trust, folders, dreams.* settings or the
// key change; unique labels for two folders of one name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { loadClusterProfiles } from '../../../src/core/hpc/clusterProfile';
import {
  type McpContext,
  type McpHost,
  type McpServerDefinitionProviderLike,
  type McpStdioServerDefinitionLike,
  MCP_PROVIDER_ID,
  registerDreamsMcpServers,
} from '../../../src/extension/mcpServerProvider';

const KEY = 'sk-ant-provider-test-0000';
const token = {} as vscode.CancellationToken;

class Emitter<T = void> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = ((l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  }) as unknown as vscode.Event<T>;
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Definition implements McpStdioServerDefinitionLike {
  cwd?: vscode.Uri;
  constructor(
    public label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

/** A stand-in VS Code: folders, trust, dreams.* settings, secret storage and the MCP API, all changeable by the test. */
function fakeVsCode(opts: {
  folders: string[];
  trusted: boolean;
  settings?: Record<string, unknown>;
  key?: string;
  mcpApi?: boolean;
  throwOnRegister?: boolean;
}) {
  const trust = new Emitter(),
    folders = new Emitter(),
    config = new Emitter<vscode.ConfigurationChangeEvent>(),
    secret = new Emitter<vscode.SecretStorageChangeEvent>();
  const state = {
    trusted: opts.trusted,
    settings: { ...(opts.settings ?? {}) },
    key: opts.key,
    provider: undefined as McpServerDefinitionProviderLike | undefined,
    id: '',
  };
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-mcp-provider-'));
  const host: McpHost = {
    lm:
      opts.mcpApi === false
        ? {}
        : {
            registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProviderLike) {
              if (opts.throwOnRegister) throw new Error('must be registered in the contributes.modelContextServerCollections array');
              state.id = id;
              state.provider = provider;
              return { dispose: () => undefined };
            },
          },
    McpStdioServerDefinition: Definition,
    EventEmitter: Emitter as unknown as McpHost['EventEmitter'],
    Uri: { file: (p: string) => ({ scheme: 'file', fsPath: p }) as vscode.Uri },
    workspace: {
      get workspaceFolders() {
        return opts.folders.map((p, index) => ({ name: path.basename(p), index, uri: { scheme: 'file', fsPath: p } as vscode.Uri }));
      },
      get isTrusted() {
        return state.trusted;
      },
      getConfiguration: ((section: string) => {
        assert.equal(section, 'dreams');
        return { get: (k: string, d?: unknown) => (k in state.settings ? state.settings[k] : d) };
      }) as unknown as typeof vscode.workspace.getConfiguration,
      onDidGrantWorkspaceTrust: trust.event,
      onDidChangeWorkspaceFolders: folders.event as unknown as typeof vscode.workspace.onDidChangeWorkspaceFolders,
      onDidChangeConfiguration: config.event,
    },
  };
  const context: McpContext = {
    extensionPath: '/ext',
    extension: { packageJSON: { version: '0.3.0' } },
    globalStorageUri: { scheme: 'file', fsPath: storage } as vscode.Uri,
    secrets: {
      get: async (k: string) => (k === 'dreams.anthropic.apiKey' ? state.key : undefined),
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: secret.event,
    } as unknown as vscode.SecretStorage,
  };
  const changes = { count: 0 };
  const disposables = registerDreamsMcpServers(context, host);
  state.provider?.onDidChangeMcpServerDefinitions?.(() => changes.count++);
  return {
    host,
    context,
    state,
    storage,
    changes,
    disposables,
    grantTrust: () => {
      state.trusted = true;
      trust.fire();
    },
    changeSetting: (section: string) => config.fire({ affectsConfiguration: (s: string) => section === s || section.startsWith(`${s}.`) }),
    changeSecret: (key: string) => secret.fire({ key }),
    provide: async () => (await state.provider!.provideMcpServerDefinitions(token)) as McpStdioServerDefinitionLike[],
    resolve: async (d: McpStdioServerDefinitionLike) =>
      (await state.provider!.resolveMcpServerDefinition!(d, token)) as McpStdioServerDefinitionLike,
  };
}

const userSettings = {
  pwCommand: 'mpirun -np 2 pw.x',
  pseudoDir: '/opt/upf',
  clusters: [{ name: 'hpc1', sshHost: 'hpc1', scheduler: 'slurm', workRoot: '~/dreams', pwCommand: 'srun pw.x' }],
};

describe('the MCP server provider the extension registers with VS Code', () => {
  const made: string[] = [];
  after(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });

  it("offers a read-only server per folder in an untrusted workspace: the shipped CLI with --read-only, from the folder, with none of the user's settings nor the key", async () => {
    const v = fakeVsCode({ folders: ['/home/u/al-study'], trusted: false, settings: userSettings, key: KEY });
    made.push(v.storage);
    assert.equal(v.state.id, MCP_PROVIDER_ID);
    const [def, ...rest] = await v.provide();
    assert.equal(rest.length, 0);
    assert.equal(def!.label, 'DREAMS (al-study) (read-only)');
    assert.equal(def!.command, process.execPath);
    assert.deepEqual(def!.args, [
      '/ext/dist/cli.js',
      'mcp',
      '--runs-dir',
      '/home/u/al-study/runs',
      '--workspace',
      '/home/u/al-study',
      '--read-only',
    ]);
    assert.equal(def!.cwd?.fsPath, '/home/u/al-study');
    assert.equal(def!.version, '0.3.0-read-only');
    const started = await v.resolve(def!);
    assert.deepEqual(started.env, { ELECTRON_RUN_AS_NODE: '1' }, 'no key for a read-only server');
    assert.deepEqual(fs.readdirSync(v.storage), [], 'no cluster profiles written for an untrusted workspace');
  });

  it("offers the definitions anew when the user trusts the workspace, now with the acting tools and the user's settings", async () => {
    const v = fakeVsCode({ folders: ['/home/u/al-study'], trusted: false, settings: userSettings });
    made.push(v.storage);
    assert.equal(v.changes.count, 0);
    v.grantTrust();
    assert.equal(v.changes.count, 1);
    const [def] = await v.provide();
    assert.equal(def!.label, 'DREAMS (al-study)');
    assert.equal(def!.version, '0.3.0');
    assert.ok(!def!.args.includes('--read-only'));
  });

  it("in a trusted workspace passes dreams.pwCommand, dreams.pseudoDir and dreams.clusters (as a profiles file the CLI reads) after the folder's flags", async () => {
    const v = fakeVsCode({ folders: ['/home/u/al-study'], trusted: true, settings: userSettings });
    made.push(v.storage);
    const [def] = await v.provide();
    const profiles = path.join(v.storage, 'mcp-cluster-profiles.json');
    assert.deepEqual(def!.args, [
      '/ext/dist/cli.js',
      'mcp',
      '--runs-dir',
      '/home/u/al-study/runs',
      '--workspace',
      '/home/u/al-study',
      '--pw-command',
      'mpirun -np 2 pw.x',
      '--pseudo-dir',
      '/opt/upf',
      '--cluster-profiles',
      profiles,
    ]);
    assert.deepEqual(
      loadClusterProfiles(profiles).map((p) => [p.name, p.sshHost, p.pwCommand]),
      [['hpc1', 'hpc1', 'srun pw.x']],
    );
    assert.equal(fs.statSync(profiles).mode & 0o077, 0, "the profiles file is the user's alone");
    // unset settings: the CLI's own defaults (pw.x on PATH, $DREAMS_PSEUDO_DIR..., ~/.config/dreams/clusters.json)
    const bare = fakeVsCode({ folders: ['/home/u/al-study'], trusted: true });
    made.push(bare.storage);
    assert.deepEqual((await bare.provide())[0]!.args.slice(6), ['--pw-command', 'pw.x']);
  });

  it('puts the stored API key in the started server\'s environment, never in its arguments nor in the definitions VS Code keeps; none when dreams.provider is "offline"', async () => {
    const v = fakeVsCode({ folders: ['/home/u/al-study'], trusted: true, settings: userSettings, key: KEY });
    made.push(v.storage);
    const [def] = await v.provide();
    assert.ok(!JSON.stringify(def).includes(KEY), 'the offered definition holds no key');
    const started = await v.resolve(def!);
    assert.equal(started.env.ANTHROPIC_API_KEY, KEY);
    assert.equal(started.env.ELECTRON_RUN_AS_NODE, '1');
    assert.ok(!started.args.some((a) => a.includes(KEY)), 'the key is not on the command line');
    v.state.settings.provider = 'offline';
    const offline = await v.resolve((await v.provide())[0]!);
    assert.equal(offline.env.ANTHROPIC_API_KEY, undefined);
    v.state.settings.provider = 'anthropic';
    v.state.key = undefined;
    assert.equal((await v.resolve((await v.provide())[0]!)).env.ANTHROPIC_API_KEY, undefined, 'no key stored: none set');
  });

  it('offers the definitions anew when a dreams.* setting or the stored key changes, not for other settings or secrets', () => {
    const v = fakeVsCode({ folders: ['/home/u/al-study'], trusted: true });
    made.push(v.storage);
    v.changeSetting('dreams.pwCommand');
    assert.equal(v.changes.count, 1);
    v.changeSetting('editor.fontSize');
    v.changeSecret('someone.else');
    assert.equal(v.changes.count, 1);
    v.changeSecret('dreams.anthropic.apiKey');
    assert.equal(v.changes.count, 2);
  });

  it("gives two folders of one name labels (VS Code's server ids) told apart by their parent folder", async () => {
    const v = fakeVsCode({ folders: ['/home/u/a/app', '/home/u/b/app'], trusted: true });
    made.push(v.storage);
    const defs = await v.provide();
    assert.deepEqual(
      defs.map((d) => d.label),
      ['DREAMS (a/app)', 'DREAMS (b/app)'],
    );
    assert.deepEqual(
      defs.map((d) => d.cwd?.fsPath),
      ['/home/u/a/app', '/home/u/b/app'],
    );
  });

  it('registers nothing where VS Code has no MCP API, and does not throw where it refuses the registration', () => {
    const none = fakeVsCode({ folders: ['/home/u/x'], trusted: true, mcpApi: false });
    const refused = fakeVsCode({ folders: ['/home/u/x'], trusted: true, throwOnRegister: true });
    made.push(none.storage, refused.storage);
    assert.deepEqual([none.disposables.length, refused.disposables.length], [0, 0]);
  });
});
