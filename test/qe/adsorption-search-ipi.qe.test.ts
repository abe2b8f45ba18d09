// The adsorption search with the user's own calculator over i-PI: `calculator: { kind: ipi,
// command: [python3, dreams_ase_ipi_client.py, ase.calculators.emt:EMT] }` (Debian's
// python3-ase) finds what the built-in EMT finds on two AA20 cases, to 1 meV, through the
// real run controller, guard and provenance; its energies carry the calculator's own name
// and the command's sha256, and the report claims a screening energy, never a DFT one. A run
// cancelled while a client computes a geometry stops that client.
// Costs about a minute per case here (each relaxation is a few hundred socket round trips),
// which is why it is in this tier (real external programs, minutes) and not the unit tier.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { commandSha256, ipiCalculatorKey } from '../../src/core/calculators/ipi/clientProcess';
import type { PhysicalSettings } from '../../src/core/dft/types';
import { registryContext } from '../../src/core/agents/worker';
import { RunController } from '../../src/core/run/controller';
import type { SearchResultValue } from '../../src/core/tools/adsorptionSearch/searchOutputs';
import { parseObjectiveFile } from '../../src/core/workflows/objective';
import { byName, emtSearchSettings, freshDir } from '../unit/core/workflows/support/adsorptionSearch';

const root = path.resolve(__dirname, '../..');
const AA20 = path.join(root, 'test/fixtures/adsmind/aa20');
const COMMAND = [
  '/usr/bin/python3',
  path.join(root, 'src/core/calculators/ipi/python/dreams_ase_ipi_client.py'),
  'ase.calculators.emt:EMT',
];

const CASES = [
  { id: '09', file: '09_Pt_111.xyz', smiles: '[OH]' },
  { id: '05', file: '05_Cu3Ag_111.xyz', smiles: '[H]' },
];

/** Start an offline search run of one AA20 case with this calculator; `done` is its end. */
async function begin(
  dir: string,
  c: (typeof CASES)[number],
  calculator: Record<string, unknown>,
): Promise<{ run: RunController; done: Promise<{ state: string; reason?: string }> }> {
  fs.mkdirSync(path.join(dir, 'slabs'), { recursive: true });
  fs.copyFileSync(path.join(AA20, c.file), path.join(dir, 'slabs', c.file));
  const file = path.join(dir, 'search.yaml');
  fs.writeFileSync(
    file,
    [
      'workflow: adsorption-search',
      'inputs:',
      `  slab: { file: slabs/${c.file} }`,
      `  adsorbate: { smiles: "${c.smiles}" }`,
      '  calculator: { kind: emt }',
      '',
    ].join('\n'),
  );
  const inputs = {
    ...parseObjectiveFile(fs.readFileSync(file, 'utf8'), file).inputs!,
    calculator,
    maxRelaxations: 2,
    planner: { kind: 'offline', screen: false },
  };
  const run = await RunController.start({ runsDir: path.join(dir, 'runs'), settings: emtSearchSettings(inputs) });
  return { run, done: run.run() };
}

async function search(
  dir: string,
  c: (typeof CASES)[number],
  calculator: Record<string, unknown>,
): Promise<{ run: RunController; value: SearchResultValue; state: string; reason?: string }> {
  const { run, done } = await begin(dir, c, calculator);
  const r = await done;
  const value = byName(run.session.run.registry, 'adsorption_search_result').at(-1)?.value as SearchResultValue;
  return { run, value, state: r.state, ...(r.reason ? { reason: r.reason } : {}) };
}

// ASE's EMT slowed down (test/fixtures/ipi/slow_emt.py): the first geometry at once, every other
// after 120 s; the tag finds this test's own client among the machine's processes.
const TAG = `dreams-ipi-cancel-${process.pid}-${Date.now()}`;
const SLOW = [COMMAND[0]!, COMMAND[1]!, 'slow_emt:SlowEMT', 'seconds=120', `tag=${TAG}`];

/** Process ids whose command line holds the text. */
function processesWith(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until<T>(what: string, fn: () => T | undefined, timeoutMs: number): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('adsorption search with calculator {kind: ipi} (ASE EMT through the shipped client script)', function () {
  this.timeout(600_000);
  const saved = process.env.DREAMS_CALCULATORS;
  const savedPath = process.env.PYTHONPATH;
  before(() => {
    const probe = spawnSync('/usr/bin/python3', ['-c', 'import ase.calculators.socketio'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(
        `this test needs Debian's python3-ase (apt-get install -y python3-ase): ${probe.error?.message ?? probe.stderr.trim()}`,
      );
    // The user's calculators file lists the client (DREAMS starts no other command).
    const file = path.join(freshDir('dreams-ipi-allowed-'), 'calculators.json');
    fs.writeFileSync(file, JSON.stringify({ ipi: [{ command: COMMAND }, { command: SLOW }] }));
    process.env.DREAMS_CALCULATORS = file;
    // the slow calculator's module, for the client's import
    process.env.PYTHONPATH = [path.join(root, 'test/fixtures/ipi'), savedPath].filter(Boolean).join(':');
  });
  after(() => {
    if (saved === undefined) delete process.env.DREAMS_CALCULATORS;
    else process.env.DREAMS_CALCULATORS = saved;
    if (savedPath === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = savedPath;
  });

  it("refuses to start a run whose objective names an i-PI command the user's calculators file does not list, saying how to allow it", async () => {
    const other = ['/usr/bin/python3', '-c', 'print(1)'];
    await assert.rejects(search(freshDir('dreams-ipi-unlisted-'), CASES[0]!, { kind: 'ipi', command: other }), (e: Error) => {
      assert.match(
        e.message,
        /names the i-PI client command \["\/usr\/bin\/python3","-c","print\(1\)"\], which is not in your calculators file/,
      );
      assert.ok(e.message.includes(process.env.DREAMS_CALCULATORS!), 'the message names the file');
      assert.match(e.message, /add \{"ipi": \[\{"command": /);
      return true;
    });
  });

  it('stops the i-PI client that is computing a geometry when the run is cancelled, and leaves no client behind', async () => {
    const { run, done } = await begin(freshDir('dreams-ipi-cancel-'), CASES[1]!, { kind: 'ipi', command: SLOW });
    try {
      // a client alive for 3 s is inside its second geometry (the first is answered at once)
      const seen = new Map<number, number>();
      const pid = await until(
        'a client of the search to be computing a geometry',
        () => {
          const now = Date.now();
          const alive = processesWith(TAG);
          for (const p of alive) if (!seen.has(p)) seen.set(p, now);
          return alive.find((p) => now - seen.get(p)! >= 3000);
        },
        120_000,
      );
      const t0 = Date.now();
      await run.cancel('test: cancelled while the client computes');
      const r = await done;
      assert.equal(r.state, 'stopped');
      assert.match(r.reason ?? '', /cancelled while the client computes/);
      await until('the client to be gone', () => (processesWith(TAG).length === 0 ? true : undefined), 20_000);
      assert.ok(
        Date.now() - t0 < 20_000,
        `the client was stopped ${(Date.now() - t0) / 1000} s after the cancel, not after its 120 s geometry`,
      );
      assert.throws(() => process.kill(pid, 0), /ESRCH/, `client ${pid} is gone`);
    } finally {
      await run.close();
      for (const p of processesWith(TAG)) process.kill(p, 'SIGKILL');
    }
  });

  for (const c of CASES) {
    it(`AA20 case ${c.id} (${c.file}, ${c.smiles}): the same best configuration and adsorption energy as the built-in EMT, within 1 meV`, async () => {
      const builtIn = await search(freshDir(`dreams-ipi-emt-${c.id}-`), c, { kind: 'emt' });
      const served = await search(freshDir(`dreams-ipi-${c.id}-`), c, { kind: 'ipi', command: COMMAND });
      try {
        assert.equal(builtIn.state, 'completed', builtIn.reason);
        assert.equal(served.state, 'completed', served.reason);
        assert.ok(builtIn.value.best && served.value.best);
        assert.equal(served.value.best.relaxedSite, builtIn.value.best.relaxedSite);
        assert.ok(
          Math.abs(served.value.best.adsorptionEnergyEv - builtIn.value.best.adsorptionEnergyEv) < 1e-3,
          `E_ads ${served.value.best.adsorptionEnergyEv} eV over i-PI vs ${builtIn.value.best.adsorptionEnergyEv} eV built in`,
        );

        const reg = served.run.session.run.registry;
        const energy = byName(reg, 'total_energy').at(-1)!;
        const settings = energy.meta!.settings as PhysicalSettings;
        assert.equal(settings.code, 'ipi');
        assert.equal(settings.extra?.ipiCalculator, ipiCalculatorKey(COMMAND));
        const identity = energy.meta!.calculator as {
          method: string;
          production: boolean;
          name: string;
          command: string;
          commandSha256: string;
        };
        assert.deepEqual(
          [identity.method, identity.production, identity.command, identity.commandSha256],
          ['ipi', false, COMMAND.join(' '), commandSha256(COMMAND)],
        );
        assert.match(identity.name, /^EMT \(ase 3\.\d+/);

        const judged = [...served.run.session.run.log.events()].reverse().find((e) => e.kind === 'report.judged')!.payload as {
          accepted: boolean;
          claims: { claim: { quantity: string } }[];
        };
        assert.ok(judged.accepted);
        assert.equal(judged.claims[0]!.claim.quantity, 'screening_adsorption_energy');

        // A call cannot bring a command of its own: it names a declared calculator by key, and any other key is refused.
        const rt = served.run.session.runtime;
        const relax = reg.calls().find((x) => x.tool === 'relax_structure')!;
        const args = {
          ...Object.fromEntries(Object.entries(relax.args).map(([k, v]) => [k, v.value])),
          ipiCalculator: ipiCalculatorKey(['sh', '-c', 'echo owned']),
        };
        const out = await rt.registry.callProposed(
          rt.registry.get('relax_structure')!,
          { tool: 'relax_structure', args, refs: {}, reasons: {}, context: 'test: an undeclared calculator', agent: { role: 'dft' } },
          registryContext(rt),
        );
        assert.equal(out.status, 'failed');
        assert.match((out as { error: string }).error, /is not a calculator declared for this run \(declared: [0-9a-f]{64}\)/);
        assert.equal(
          rt.registry.get('relax_structure')!.schema && JSON.stringify(rt.registry.get('relax_structure')!.schema).includes('ipiCommand'),
          false,
        );
      } finally {
        await builtIn.run.close();
        await served.run.close();
      }
    });
  }
});
