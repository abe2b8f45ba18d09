import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunProgress } from '../../../../src/core/run/progress';
import { progressLine, runProgress } from '../../../../src/core/run/progress';
import { runningSeconds } from '../../../../src/core/run/meters';
import type { CanvasEvent } from '../../../../src/core/canvas/types';
import { eventLine, ProgressView } from '../../../../src/cli/commands/progressView';
import { approvalFor, runCommand } from '../../../../src/cli/commands/run';
import { parseBudget, parseLocalJobs, resolveRunDir, UsageError } from '../../../../src/cli/commands/runOptions';
import { autoLocalJobs } from '../../../../src/core/hpc/kPools';

async function captureErrors(fn: () => Promise<number>): Promise<{ code: number; err: string }> {
  const orig = console.error;
  let err = '';
  console.error = (...a: unknown[]) => {
    err += a.join(' ') + '\n';
  };
  try {
    return { code: await fn(), err };
  } finally {
    console.error = orig;
  }
}

const ev = (seq: number, kind: string, payload: unknown, ts: string, key?: string): CanvasEvent =>
  ({ v: 1, seq, ts, actor: { kind: 'framework', id: 't' }, kind, payload, crc: '', ...(key ? { key } : {}) }) as CanvasEvent;

/** The test pseudopotentials (Al, Pt, ...) of the workflow fixtures. */
const PSEUDO = path.resolve(__dirname, '../../../fixtures/workflows/pseudo');

/** An objective file with `yaml` in a fresh directory. */
function objectiveFile(prefix: string, name: string, yaml: string): { dir: string; objective: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const objective = path.join(dir, name);
  fs.writeFileSync(objective, yaml);
  return { dir, objective };
}

describe('dreams run options', () => {
  it('reads budgets, wall time in minutes or hours, and refuses what it cannot read', () => {
    assert.deepEqual(parseBudget('tokens=2000000,cost=$5,jobs=40,wall=2h'), {
      maxTokens: 2_000_000,
      maxCostUsd: 5,
      maxJobs: 40,
      maxWallMinutes: 120,
    });
    assert.deepEqual(parseBudget('wall=45m'), { maxWallMinutes: 45 });
    assert.throws(() => parseBudget('cots=5'), /"cots=5" is not a limit; write tokens=N, cost=USD, jobs=N or wall=MINUTES/);
    assert.throws(() => parseBudget('jobs=2.5'), /jobs must be a positive whole number/);
  });

  it('reads --local-jobs as a count or auto (one per core), for dreams run and dreams mcp alike', () => {
    assert.equal(parseLocalJobs(undefined), 1);
    assert.equal(parseLocalJobs('3'), 3);
    assert.equal(parseLocalJobs('auto'), autoLocalJobs());
    assert.ok(autoLocalJobs() >= 1);
    for (const bad of ['0', '1.5', 'two', '', '0x2', ' 3', '1e1'])
      assert.throws(() => parseLocalJobs(bad), new RegExp(`--local-jobs must be a whole number ≥ 1 or auto \\(got "${bad}"\\)`));
  });

  it('finds a run by directory, id prefix or "latest", and says what exists when it cannot', () => {
    const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-runs-'));
    for (const id of ['20261130-101500-al', '20261130-111500-si']) {
      fs.mkdirSync(path.join(runs, id));
      fs.writeFileSync(path.join(runs, id, 'events.jsonl'), '');
    }
    assert.equal(resolveRunDir('latest', runs), path.join(runs, '20261130-111500-si'));
    assert.equal(resolveRunDir('20261130-1015', runs), path.join(runs, '20261130-101500-al'));
    assert.equal(resolveRunDir(path.join(runs, '20261130-101500-al'), runs), path.join(runs, '20261130-101500-al'));
    assert.throws(() => resolveRunDir('20261130', runs), /matches 2 runs/);
    assert.throws(() => resolveRunDir('nope', runs), UsageError);
  });

  it('without an API key and without --offline, says so and how to set it, and starts nothing', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-nokey-'));
    try {
      const { code, err } = await captureErrors(() => runCommand(['lattice constant of fcc Al, a0 = 4.05 Å', '--runs-dir', runs]));
      assert.equal(code, 2);
      assert.match(err, /no Anthropic API key: set it with {2}export ANTHROPIC_API_KEY=sk-ant-\.\.\..*--offline/);
      assert.deepEqual(fs.readdirSync(runs), []);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('refuses a bad approval policy and an objective it cannot read, before any run', async () => {
    const a = await captureErrors(() => runCommand(['lattice constant of fcc Al, a0 = 4.05 Å', '--offline', '--approval', 'sometimes']));
    assert.equal(a.code, 2);
    assert.match(a.err, /--approval must be one of wait, continue, auto-approve \(got "sometimes"\)/);
    const b = await captureErrors(() => runCommand(['lattice constant of Al', '--offline']));
    assert.equal(b.code, 2);
    assert.match(b.err, /does not state structure, latticeConstantAngstrom/);
    const c = await captureErrors(() => runCommand(['missing.yaml', '--offline']));
    assert.match(c.err, /no objective file missing\.yaml/);
  });

  it("refuses a workflow input the pseudopotential library rules out (a dual below Pt's suggested density cutoff) before a run directory is made", async () => {
    const { dir, objective } = objectiveFile(
      'dreams-dual-',
      'pt.yaml',
      'workflow: lattice-constant\ninputs:\n  element: Pt\n  structure: fcc\n  latticeConstantAngstrom: 3.92\n  dual: 8\n',
    );
    const runs = path.join(dir, 'runs');
    const { code, err } = await captureErrors(() => runCommand([objective, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', runs]));
    assert.equal(code, 2);
    assert.match(
      err,
      /dreams run: inputs\.dual: 8 × 40 Ry .* = 320 Ry is below the 401\.3 Ry density cutoff Pt\.pbe-n-rrkjus_psl\.1\.0\.0\.UPF suggests.*dual ≥ 11/,
    );
    assert.equal(fs.existsSync(runs), false);
  });

  it("lets an objective file's run.approval make the policy stricter, never looser, and says what it ignored", async () => {
    assert.deepEqual(approvalFor(undefined, 'wait'), { value: 'wait', ignored: [] });
    assert.deepEqual(approvalFor('auto-approve', 'continue'), { value: 'continue', ignored: [] });
    assert.deepEqual(approvalFor('auto-approve', undefined), { value: 'auto-approve', ignored: [] });
    const loose = approvalFor(undefined, 'auto-approve');
    assert.equal(loose.value, 'continue');
    assert.match(
      loose.ignored[0]!,
      /run\.approval: auto-approve was ignored: without --approval the policy is "continue".*pass --approval auto-approve/,
    );
    assert.match(
      approvalFor('wait', 'continue').ignored[0]!,
      /--approval is "wait", and an objective file may only make it stricter \("wait"\)/,
    );
    // through the command: the notice is printed before anything else is checked or made
    const { dir, objective } = objectiveFile(
      'dreams-approval-',
      'al.yaml',
      'workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\nrun:\n  approval: auto-approve\n  reuseFrom: [runs/old-al]\n',
    );
    const { err } = await captureErrors(() =>
      runCommand([objective, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', path.join(dir, 'runs')]),
    );
    assert.match(err, /dreams run: run\.approval: auto-approve was ignored/);
  });

  it('reads run.reuseFrom relative to the objective file and refuses a directory that is not a run, before a run directory is made', async () => {
    const { dir, objective } = objectiveFile(
      'dreams-reuse-',
      'al.yaml',
      'workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\nrun:\n  reuseFrom: [runs/old-al]\n',
    );
    const runs = path.join(dir, 'runs');
    const { code, err } = await captureErrors(() => runCommand([objective, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', runs]));
    assert.equal(code, 2);
    assert.ok(err.includes(`--reuse-from: ${path.join(dir, 'runs/old-al')} is not a DREAMS run (it has no events.jsonl)`), err);
    assert.equal(fs.existsSync(runs), false);
    const both = await captureErrors(() =>
      runCommand([objective, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', runs, '--reuse-from', dir, '--rerun-identical']),
    );
    assert.equal(both.code, 2);
    const schema = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      schema,
      'workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\nrun:\n  reuseFrom: runs/old-al\n',
    );
    const c = await captureErrors(() => runCommand([schema, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', runs]));
    assert.equal(c.code, 2);
    assert.match(c.err, /run\.reuseFrom: must be array/);
  });
});

describe('live progress', () => {
  const t = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s)).toISOString();
  const events = [
    ev(1, 'run.start', { runId: 'r1', objective: 'a(Al)' }, t(0)),
    ev(2, 'run.state', { state: 'running' }, t(0)),
    ev(
      3,
      'key.write',
      {
        value: {
          objective: 'a',
          version: 2,
          steps: [
            { id: 'structure', title: 'Build', status: 'done' },
            { id: 'runs', title: 'Run pw.x', status: 'running' },
          ],
        },
        version: 2,
        reason: 'r',
      },
      t(1),
      'plan',
    ),
    ev(4, 'job.transition', { id: 'dreams-c-2', state: 'running' }, t(2)),
    ev(
      5,
      'llm.usage',
      { role: 'dft', usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 300 }, costUsd: 0.012 },
      t(3),
    ),
    ev(6, 'approval.request', { id: 'ap-1', tool: 'make_pw_input', verdicts: [{ reasons: ['degauss is large'] }] }, t(4)),
  ];

  it('folds the log into steps, jobs, tokens, cost and open approvals', () => {
    const p = runProgress(events);
    assert.deepEqual(p.step, { id: 'runs', title: 'Run pw.x', index: 2, total: 2 });
    assert.equal(p.jobs.running, 1);
    assert.equal(p.tokens, 1500);
    assert.equal(p.approvalsOpen, 1);
    assert.equal(progressLine(p), '[running] step 2/2 runs · jobs 0/1 done, 1 running · 1,500 tokens $0.01 · 1 approval open');
    const unpriced = runProgress([
      ...events,
      ev(
        7,
        'llm.usage',
        { role: 'dft', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: null },
        t(5),
      ),
    ]);
    assert.equal(unpriced.costUsd, null);
    assert.match(progressLine(unpriced), /cost unknown/);
  });

  it('redraws one status line in a terminal and writes plain time-stamped lines to a log', () => {
    const p = runProgress(events) as RunProgress;
    const tty: string[] = [];
    const view = new ProgressView({ write: (s) => tty.push(s), isTTY: true, columns: 200 }, 'runs/r1');
    view.onEvent(p, events[5]!);
    assert.match(
      tty.join(''),
      /\r\x1b\[K⚠ approval ap-1 needed for make_pw_input: degauss is large\n {2}answer: dreams approve runs\/r1 ap-1/,
    );
    assert.match(tty.at(-1)!, /^\r\x1b\[K\[running\] step 2\/2/);
    const log: string[] = [];
    const plain = new ProgressView({ write: (s) => log.push(s), isTTY: false }, 'runs/r1', 0);
    plain.onEvent(p, events[5]!);
    assert.ok(log.every((l) => !l.includes('\x1b') && !l.includes('\r')));
    assert.match(log[0]!, /^\d\d:\d\d:\d\d ⚠ approval ap-1/);
    assert.match(log[1]!, /^\d\d:\d\d:\d\d \[running\] step 2\/2/);
  });

  it('says which rule refused a call and why, from the verdicts recorded before its end', () => {
    const p = runProgress(events) as RunProgress;
    const log: string[] = [];
    const view = new ProgressView({ write: (s) => log.push(s), isTTY: false }, 'runs/r1', 3_600_000);
    const fail = {
      tier: 1,
      rule: 'cutoff-above-pseudopotential-suggestion',
      parameter: 'ecutwfc',
      level: 'fail',
      reasons: ['ecutwfc 20 Ry is below the 30 Ry Si.pbe-n-rrkjus_psl.1.0.0.UPF suggests'],
      judged: true,
    };
    const pass = { ...fail, rule: 'kpoints-positive', parameter: 'kpoints', level: 'pass', reasons: ['fine'] };
    view.onEvent(p, ev(20, 'guard.verdict', { call: 'c-7', verdicts: [pass, fail] }, '2026-12-05T10:00:00Z'));
    view.onEvent(p, ev(21, 'provenance.call.end', { id: 'c-7', status: 'refused', error: 'refused by the guard' }, '2026-12-05T10:00:01Z'));
    const refused = log.find((l) => l.includes('the guard refused c-7'));
    assert.ok(refused, log.join(''));
    assert.match(refused!, /\[cutoff-above-pseudopotential-suggestion · ecutwfc\] ecutwfc 20 Ry is below the 30 Ry/);
    assert.doesNotMatch(refused!, /kpoints-positive/);
  });

  it('names each started step with its own title and place, also when steps run side by side', () => {
    const plan = {
      objective: 'a',
      version: 3,
      steps: [
        { id: 'gas-run', title: 'Run pw.x: gas-phase CO relaxation', status: 'running' },
        { id: 'relax-clean-run', title: 'Run pw.x: clean slab relaxation', status: 'running' },
        { id: 'relax-ontop-run', title: 'Run pw.x: ontop relaxation', status: 'pending' },
      ],
    };
    const side = [
      ev(1, 'run.start', { runId: 'r1', objective: 'CO/Pt' }, t(0)),
      ev(2, 'key.write', { value: plan, version: 3, reason: 'r' }, t(1), 'plan'),
      ev(3, 'step.start', { id: 'gas-run', attempt: 1 }, t(2)),
      ev(4, 'step.start', { id: 'relax-clean-run', attempt: 2 }, t(2)),
    ];
    const lines = [3, 4].map((n) => eventLine(side[n - 1]!, runProgress(side.slice(0, n)), 'runs/r1'));
    assert.deepEqual(lines, [
      '▶ step 1/3 gas-run: Run pw.x: gas-phase CO relaxation',
      '▶ step 2/3 relax-clean-run (attempt 2): Run pw.x: clean slab relaxation',
    ]);
    assert.equal(runProgress(side).step?.id, 'gas-run'); // the status line still leads with the first running step
  });

  it('counts wall time only while running, across sessions, a killed session up to its last event', () => {
    const s = [
      ev(1, 'run.state', { state: 'running' }, t(0)),
      ev(2, 'run.state', { state: 'paused' }, t(10)),
      ev(3, 'run.state', { state: 'running' }, t(20)),
      ev(4, 'job.transition', {}, t(25)),
      ev(5, 'run.state', { state: 'running' }, t(40)),
      ev(6, 'run.state', { state: 'stopped' }, t(45)),
    ];
    assert.equal(runningSeconds(s), 10 + 5 + 5);
  });
});
