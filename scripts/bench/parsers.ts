/**
 * bench:parsers — throughput of the pw.x output parser on a 50 MB relaxation output
 * (the BFGS steps of a real pw.x 6.7 relax output repeated), of the live progress parser
 * on the same text in 64 kB chunks, and of the parser on a real output with a 2,000-member
 * BEEF ensemble; plus the time to parse and validate a typical input.
 * Writes bench/results/parsers.json.
 *   npm run bench:parsers [-- --mb 50 --runs 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePwInput } from '../../src/core/dft/qe/input';
import { parsePwOutput, PwProgressParser } from '../../src/core/dft/qe/output';
import { validatePwInput } from '../../src/core/dft/qe/validate';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/qe');
const TARGET_MB_PER_S = 50;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SIZE_MB = arg('mb', 50);
const RUNS = arg('runs', 5);
const MB = 1024 * 1024;

/** A relax output of about `mb` MB: the real header, its BFGS steps repeated, the real ending. */
function bigRelaxOutput(mb: number): { text: string; steps: number } {
  const real = fs.readFileSync(path.join(FIXTURES, 'runs/si-relax.out'), 'utf8');
  const first = real.indexOf('     Self-consistent Calculation');
  const end = real.indexOf('     End of BFGS Geometry Optimization');
  const head = real.slice(0, first);
  const steps = real.slice(first, end);
  const tail = real.slice(end);
  const count = Math.max(1, Math.round((mb * MB - head.length - tail.length) / steps.length));
  return { text: head + steps.repeat(count) + tail, steps: count * (steps.match(/^!/gm)?.length ?? 0) };
}

function time<T>(fn: () => T): { ms: number; result: T } {
  const t0 = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function main(): void {
  const { text, steps } = bigRelaxOutput(SIZE_MB);
  const bytes = Buffer.byteLength(text);
  const batch: number[] = [];
  let parsed = parsePwOutput(text);
  for (let i = 0; i < RUNS; i++) {
    const r = time(() => parsePwOutput(text));
    batch.push(r.ms);
    parsed = r.result;
  }
  if (parsed.ionicSteps.length !== steps) {
    throw new Error(
      `the parser found ${parsed.ionicSteps.length} geometries in the benchmark text, expected ${steps}; the benchmark would measure a broken parse.`,
    );
  }
  const streaming: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    streaming.push(
      time(() => {
        const p = new PwProgressParser();
        for (let at = 0; at < text.length; at += 65536) p.push(text.slice(at, at + 65536));
        return p.end();
      }).ms,
    );
  }
  const beefText = fs.readFileSync(path.join(FIXTURES, 'runs/si-beef-ensemble.out'), 'utf8');
  const beefRuns = 200;
  const beef: number[] = [];
  for (let i = 0; i < beefRuns; i++) {
    const r = time(() => parsePwOutput(beefText));
    if (r.result.beefEnsembleEv?.length !== 2000) throw new Error('the BEEF fixture did not give 2,000 ensemble energies');
    beef.push(r.ms);
  }
  const inputText = fs.readFileSync(path.join(FIXTURES, 'inputs/hubbard-7x.in'), 'utf8');
  const validate: number[] = [];
  for (let i = 0; i < 200; i++) validate.push(time(() => validatePwInput(parsePwInput(inputText))).ms);

  const mbps = (ms: number, b: number) => b / MB / (ms / 1000);
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    relaxOutput: {
      sizeMB: round(bytes / MB, 2),
      lines: parsed.lineCount,
      geometries: parsed.ionicSteps.length,
      runs: RUNS,
      medianMs: round(median(batch)),
      bestMs: round(Math.min(...batch)),
      medianMBperS: round(mbps(median(batch), bytes)),
      bestMBperS: round(mbps(Math.min(...batch), bytes)),
      targetMBperS: TARGET_MB_PER_S,
      meetsTarget: mbps(median(batch), bytes) >= TARGET_MB_PER_S,
    },
    streamingRelaxOutput: {
      chunkBytes: 65536,
      runs: streaming.length,
      medianMs: round(median(streaming)),
      medianMBperS: round(mbps(median(streaming), bytes)),
    },
    beefOutput: {
      file: 'test/fixtures/qe/runs/si-beef-ensemble.out',
      sizeKB: round(Buffer.byteLength(beefText) / 1024, 1),
      ensembleMembers: 2000,
      runs: beefRuns,
      medianMs: round(median(beef), 3),
      medianMBperS: round(mbps(median(beef), Buffer.byteLength(beefText))),
    },
    validateInput: { file: 'test/fixtures/qe/inputs/hubbard-7x.in', runs: validate.length, medianMs: round(median(validate), 3) },
  };
  console.log(
    `pw.x output parser, ${result.relaxOutput.sizeMB} MB relax output (${result.relaxOutput.geometries} geometries, ${result.relaxOutput.lines} lines):`,
  );
  console.log(
    `  batch:     median ${result.relaxOutput.medianMs} ms = ${result.relaxOutput.medianMBperS} MB/s (best ${result.relaxOutput.bestMBperS} MB/s; target ≥ ${TARGET_MB_PER_S} MB/s: ${result.relaxOutput.meetsTarget ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  streaming: median ${result.streamingRelaxOutput.medianMs} ms = ${result.streamingRelaxOutput.medianMBperS} MB/s (64 kB chunks)`,
  );
  console.log(
    `BEEF output with 2,000 ensemble energies (${result.beefOutput.sizeKB} kB): median ${result.beefOutput.medianMs} ms per parse (${result.beefOutput.medianMBperS} MB/s)`,
  );
  console.log(`parse + validate a 7.x input with HUBBARD: median ${result.validateInput.medianMs} ms`);
  const out = path.join(ROOT, 'bench/results/parsers.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, out)}`);
}

main();
