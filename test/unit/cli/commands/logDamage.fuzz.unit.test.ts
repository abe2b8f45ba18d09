// A real run's log (an offline adsorption search with EMT through the run controller, plus
// an open approval request), damaged the ways files get damaged: truncated, a byte changed,
// garbage appended, a line deleted, line ends turned into CR LF. Every command that opens a
// log (report, jobs, approve, approve --list, resume, run --reuse-from, and dreams mcp's status and
// report) runs on each copy. None may crash;
// none may accept damage silently: each names the first line it could not read (and the
// backup, when it cut); a read-only command changes nothing; approve never empties a log;
// CR LF is read, not damage. A log cut exactly at a line end is a valid shorter log, which no
// format can tell from a run that stopped there: those copies must simply work.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApprovalBook } from '../../../../src/core/guard/approvals';
import { RunController } from '../../../../src/core/run/controller';
import { openRun } from '../../../../src/core/run/directory';
import { approveCommand } from '../../../../src/cli/commands/approve';
import { jobsCommand } from '../../../../src/cli/commands/jobs';
import { reportCommand } from '../../../../src/cli/commands/report';
import { resumeCommand } from '../../../../src/cli/commands/resume';
import { runCommand } from '../../../../src/cli/commands/run';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DreamsMcpServer } from '../../../../src/mcp/server';
import { emtSearchSettings } from '../../core/workflows/support/adsorptionSearch';

const PSEUDO = path.resolve(__dirname, '../../../fixtures/workflows/pseudo');

/** mulberry32: a small seeded generator, so a failing copy can be made again from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.DREAMS_FUZZ_SEED ?? 20261204);

interface Captured {
  code: number;
  out: string;
  err: string;
  threw?: unknown;
}

/** Run a command in this process, capturing what it prints (driveRun writes to stdout directly). */
async function capture(fn: () => Promise<number>): Promise<Captured> {
  const log = console.log;
  const error = console.error;
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  let err = '';
  console.log = (...a: unknown[]) => {
    out += a.join(' ') + '\n';
  };
  console.error = (...a: unknown[]) => {
    err += a.join(' ') + '\n';
  };
  (process.stdout as { write: unknown }).write = (chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  };
  try {
    return { code: await fn(), out, err };
  } catch (threw) {
    return { code: -1, out, err, threw };
  } finally {
    console.log = log;
    console.error = error;
    (process.stdout as { write: unknown }).write = write;
  }
}

/** One reading tool of a read-only `dreams mcp` server over the SDK's in-memory transport; its text. */
async function mcpRead(runsDir: string, tool: string, run: string): Promise<string> {
  const server = new DreamsMcpServer({
    runsDir,
    workspace: path.dirname(runsDir),
    readOnly: true,
    version: 'fuzz',
    session: {},
    defaults: { pseudoDir: PSEUDO, pwCommand: 'pw.x', localConcurrency: 1 },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'fuzz-agent', version: '0.1' });
  await client.connect(b);
  try {
    const r = (await client.callTool({ name: tool, arguments: { run } })) as CallToolResult;
    return r.content.map((c) => (c as { text?: string }).text ?? '').join('\n');
  } finally {
    await client.close();
    await server.close();
  }
}

type Damage = { kind: string; bytes: Buffer };

function damages(original: Buffer, random: () => number): Damage[] {
  const lines = original
    .toString('latin1')
    .split(/(?<=\n)/)
    .map((l) => Buffer.from(l, 'latin1'));
  const at = (n: number) => Math.floor(random() * n);
  const crlf = Buffer.from(original.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
  const out: Damage[] = [{ kind: 'crlf', bytes: crlf }];
  for (let i = 0; i < 20; i++) out.push({ kind: 'truncate', bytes: original.subarray(0, 1 + at(original.length - 1)) });
  // a cut exactly at a line end: a valid shorter log
  out.push({ kind: 'truncate-at-line-end', bytes: Buffer.concat(lines.slice(0, 1 + at(lines.length - 1))) });
  for (let i = 0; i < 20; i++) {
    const b = Buffer.from(original);
    const p = at(b.length);
    b[p] = b[p]! ^ (1 + at(255));
    out.push({ kind: 'byte-flip', bytes: b });
  }
  for (let i = 0; i < 6; i++) {
    const garbage = Buffer.from(Array.from({ length: 1 + at(40) }, () => at(256)));
    out.push({ kind: 'garbage', bytes: Buffer.concat([original, garbage]) });
  }
  // the first line (run.start) changed or gone, and the last line gone (a valid shorter log)
  const firstFlipped = Buffer.from(original);
  firstFlipped[10] = firstFlipped[10]! ^ 0x20;
  out.push(
    { kind: 'byte-flip', bytes: firstFlipped },
    { kind: 'delete-line', bytes: Buffer.concat(lines.slice(1)) },
    { kind: 'delete-line', bytes: Buffer.concat(lines.slice(0, -1)) },
  );
  for (let i = 0; i < 10; i++) {
    const kept = [...lines];
    kept.splice(at(kept.length), 1);
    out.push({ kind: 'delete-line', bytes: Buffer.concat(kept) });
  }
  for (let i = 0; i < 3; i++) out.push({ kind: 'crlf+truncate', bytes: crlf.subarray(0, 1 + at(crlf.length - 1)) });
  for (let i = 0; i < 3; i++) {
    const b = Buffer.from(crlf);
    const p = at(b.length);
    b[p] = b[p]! ^ (1 + at(255));
    out.push({ kind: 'crlf+byte-flip', bytes: b });
  }
  return out;
}

/**
 * What a reader can read of `damaged`: how many of the original lines it starts with, intact
 * and in order (a CR before a line's LF is part of its line end), and whether anything follows.
 */
function expectation(original: Buffer, damaged: Buffer): { good: number; damaged: boolean } {
  const want = original.toString('latin1').split('\n').slice(0, -1);
  const got = damaged.toString('latin1').split('\n');
  const tail = got.pop()!; // after the last LF: '' when the file ends with a line end
  let good = 0;
  while (good < got.length && good < want.length && got[good]!.replace(/\r$/, '') === want[good]) good++;
  return { good, damaged: good < got.length || tail !== '' };
}

describe('every command that opens a log, on damaged copies of a real run', function () {
  this.timeout(900_000);
  let root: string;
  let source: string;
  let original: Buffer;
  let report: Buffer;
  let requestLine: number;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dreams-logfuzz-'));
    const c = await RunController.start({
      runsDir: path.join(root, 'made'),
      settings: emtSearchSettings({ slab: { generate: { metal: 'Pt', size: [3, 3], layers: 3 } }, adsorbate: 'CO' }),
    });
    const result = await c.run();
    assert.equal(result.state, 'completed', result.reason);
    source = c.runDir;
    await c.close();
    // An open approval request at the end, for `dreams approve` to answer.
    const run = await openRun(source, { mode: 'writer' });
    const call = run.registry.calls().find((x) => x.status === 'ok')!;
    await new ApprovalBook(run.log).raise({
      call: call.id,
      tool: call.tool,
      verdicts: [{ rule: 'param-judge@1', level: 'warn', reasons: ['a concern'] }],
      provenancePath: [],
    });
    requestLine = run.log.lastSeq();
    await run.close();
    original = fs.readFileSync(path.join(source, 'events.jsonl'));
    assert.equal((await capture(() => reportCommand([source, '--no-bundle']))).code, 0);
    report = fs.readFileSync(path.join(source, 'report.md'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('says when it took over the lock of a writer that no longer runs (approve, on an undamaged log)', async () => {
    const dir = path.join(root, 'stale', path.basename(source));
    fs.cpSync(source, dir, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.writeFileSync(
      path.join(dir, 'events.lock'),
      JSON.stringify({ pid: Number(dead), host: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' }),
    );
    const a = await capture(() => approveCommand([dir, 'ap-1']));
    assert.equal(a.code, 0, a.err);
    assert.match(
      a.err,
      new RegExp(
        `took over the writer lock \\S+events\\.lock of process ${dead} on ${os.hostname()} \\(since 2026-01-01T00:00:00\\.000Z\\), which no longer runs`,
      ),
    );
    assert.doesNotMatch(a.err, /damaged/);
  });

  it(`names the damage, never crashes, changes nothing it only reads, never empties a log (seed ${SEED})`, async () => {
    const copies = damages(original, prng(SEED));
    const counts: Record<string, number> = {};
    let resumed = 0;
    let reusedFrom = 0;
    const objective = path.join(root, 'al.yaml');
    fs.writeFileSync(objective, 'workflow: lattice-constant\ninputs:\n  element: Al\n  structure: fcc\n  latticeConstantAngstrom: 4.05\n');
    for (const [i, d] of copies.entries()) {
      const runs = path.join(root, `copies-${i}`);
      const dir = path.join(runs, path.basename(source));
      fs.cpSync(source, dir, { recursive: true });
      const log = path.join(dir, 'events.jsonl');
      fs.writeFileSync(log, d.bytes);
      const exp = expectation(original, d.bytes);
      const line = exp.good + 1;
      const where = `copy ${i} (${d.kind}, seed ${SEED}): ${exp.damaged ? `damaged at line ${line}` : `${exp.good} whole lines`}`;
      counts[d.kind] = (counts[d.kind] ?? 0) + 1;
      const names = new RegExp(`(damaged at line ${line} |torn line: line ${line} )`);

      // Read-only commands: the damage is named, nothing is rewritten.
      for (const [name, argv] of [
        ['report', [dir, '--no-bundle']],
        ['jobs', [dir]],
        ['approve --list', [dir, '--list']],
      ] as const) {
        const r = await capture(() => (name === 'report' ? reportCommand : name === 'jobs' ? jobsCommand : approveCommand)([...argv]));
        assert.equal(r.threw, undefined, `${where}: dreams ${name} threw ${String((r.threw as Error)?.stack ?? r.threw)}`);
        assert.deepEqual(fs.readFileSync(log), d.bytes, `${where}: dreams ${name} changed the log`);
        if (exp.damaged) {
          assert.equal(r.code, 1, `${where}: dreams ${name} exit ${r.code}\n${r.err}`);
          assert.match(r.err, names, `${where}: dreams ${name} did not name the damage:\n${r.err}`);
        } else {
          assert.doesNotMatch(r.err, /damaged|torn line/, `${where}: dreams ${name} reported damage on a valid log:\n${r.err}`);
          if (name !== 'approve --list') assert.equal(r.code, 0, `${where}: dreams ${name} exit ${r.code}\n${r.err}`);
        }
      }
      assert.deepEqual(
        fs.readFileSync(path.join(dir, 'report.md')),
        exp.damaged ? report : fs.readFileSync(path.join(dir, 'report.md')),
        `${where}: report.md was rewritten from a damaged log`,
      );
      // run --reuse-from reads the copy for its results: damage is named and refused before a run is made.
      if (exp.damaged) {
        const fresh = path.join(root, `fresh-${i}`);
        const r = await capture(() =>
          runCommand([objective, '--offline', '--pseudo-dir', PSEUDO, '--runs-dir', fresh, '--reuse-from', dir]),
        );
        assert.equal(r.threw, undefined, `${where}: dreams run --reuse-from threw ${String((r.threw as Error)?.stack ?? r.threw)}`);
        assert.equal(r.code, 2, `${where}: dreams run --reuse-from exit ${r.code}\n${r.err}`);
        assert.match(r.err, names, `${where}: dreams run --reuse-from did not name the damage:\n${r.err}`);
        assert.match(r.err, /--reuse-from: the event log of \S+ is damaged/, `${where}: dreams run --reuse-from did not refuse:\n${r.err}`);
        assert.equal(fs.existsSync(fresh), false, `${where}: dreams run --reuse-from made a run directory`);
        assert.deepEqual(fs.readFileSync(log), d.bytes, `${where}: dreams run --reuse-from changed the log`);
        reusedFrom++;
      }
      // dreams mcp reads the copy for an outside agent: its status and report say the damage first, and change nothing.
      for (const tool of ['dreams_status', 'dreams_report'] as const) {
        const text = await mcpRead(runs, tool, path.basename(source));
        assert.deepEqual(fs.readFileSync(log), d.bytes, `${where}: dreams mcp ${tool} changed the log`);
        if (exp.damaged) assert.match(text, names, `${where}: dreams mcp ${tool} did not name the damage:\n${text.slice(0, 600)}`);
        else assert.doesNotMatch(text, /damaged|torn line/, `${where}: dreams mcp ${tool} reported damage on a valid log`);
      }
      const all = await capture(() => jobsCommand(['--runs-dir', runs]));
      assert.equal(all.threw, undefined, `${where}: dreams jobs (all runs) threw`);
      if (exp.damaged) assert.match(all.out, new RegExp(`log damaged at line ${line}`), `${where}: dreams jobs did not mark the run`);

      // approve writes: it answers a whole log, cuts only a crash's torn last line (after a copy), never empties one.
      const a = await capture(() => approveCommand([dir, 'ap-1', '--comment', 'fuzz']));
      assert.equal(a.threw, undefined, `${where}: dreams approve threw ${String((a.threw as Error)?.stack ?? a.threw)}`);
      const after = fs.readFileSync(log);
      assert.ok(after.length > 0 || d.bytes.length === 0, `${where}: dreams approve emptied the log`);
      if (exp.damaged) {
        assert.match(a.err, names, `${where}: dreams approve did not name the damage:\n${a.err}`);
        const backup = /copied to (\S+) first/.exec(a.err)?.[1];
        if (backup) {
          assert.deepEqual(fs.readFileSync(backup), d.bytes, `${where}: the backup is not the damaged file`);
          assert.ok(exp.good > 0, `${where}: approve cut a log with no good event`);
        } else {
          assert.equal(a.code, 1);
          assert.deepEqual(after, d.bytes, `${where}: approve changed a log it refused`);
        }
      } else {
        assert.equal(a.code, line > requestLine ? 0 : 1, `${where}: dreams approve exit ${a.code}\n${a.out}${a.err}`);
      }

      // resume: refuses what it would have to cut beyond a torn last line, says where the backup is when it cuts.
      if (i % 3 === 0) {
        fs.writeFileSync(log, d.bytes);
        for (const f of fs.readdirSync(dir)) if (f.startsWith('events.damaged-')) fs.rmSync(path.join(dir, f));
        const r = await capture(() => resumeCommand([dir, '--no-bundle', '--log-level', 'off']));
        assert.equal(r.threw, undefined, `${where}: dreams resume threw ${String((r.threw as Error)?.stack ?? r.threw)}`);
        if (exp.damaged) {
          assert.match(r.err, names, `${where}: dreams resume did not name the damage:\n${r.err}`);
          if (!fs.readFileSync(log).equals(d.bytes))
            assert.match(
              r.err,
              /copied to \S+events\.damaged-\S+ first/,
              `${where}: resume cut without saying where the copy is:\n${r.err}`,
            );
          else assert.equal(r.code, 1, `${where}: resume neither refused nor cut:\n${r.out}${r.err}`);
          if (process.env.DREAMS_FUZZ_VERBOSE) console.log(where, r.code, r.err, r.out.slice(-600));
        }
        resumed++;
      }
      fs.rmSync(runs, { recursive: true, force: true });
    }
    console.log(
      `      ${copies.length} damaged copies of a ${original.length}-byte log (${Object.entries(counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}); resume on ${resumed}, run --reuse-from on ${reusedFrom}`,
    );
  });
});
