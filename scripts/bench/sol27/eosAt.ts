/**
 * The lattice constant of one Sol27LC element at settings given by hand, one EOS per k-spacing:
 * the same five points, smearing and single mesh as the workflow's EOS and the bench's tight
 * reference. For the question the convergence sweep answers only through the total energy —
 * how much the lattice constant itself moves between two k-spacings or cutoffs.
 *
 *   node --import tsx scripts/bench/sol27/eosAt.ts --element Ir --ecutwfc 135 --dual 8 \
 *        --kspacing 0.15,0.11 [--jobs 2] [--pseudo-dir DIR] [--work DIR] [--out FILE.json]
 *
 * Each EOS runs in --work (default a new temporary directory) under its own name, and a series
 * stopped part-way goes on from its finished points when run again with the same --work.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSol27, pbePseudopotential } from './elements';
import { tightReference, type ReferenceResult } from './reference';
import { commandLine } from '../../commandLine';

const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const need = (name: string): string => {
  const v = option(name);
  if (!v) throw new Error(`--${name} is required (see the usage at the top of scripts/bench/sol27/eosAt.ts).`);
  return v;
};

async function main(): Promise<void> {
  const symbol = need('element');
  const element = readSol27().find((e) => e.element === symbol);
  if (!element) throw new Error(`--element ${symbol} is not in Sol27LC.`);
  const pseudoDir = path.resolve(option('pseudo-dir') ?? path.resolve(__dirname, '../../../../shared/data/pseudo'));
  if (!fs.existsSync(pseudoDir)) throw new Error(`the pseudopotential directory ${pseudoDir} does not exist; give --pseudo-dir.`);
  const file = pbePseudopotential(pseudoDir, symbol);
  if (!file) throw new Error(`no PBE pseudopotential for ${symbol} in ${pseudoDir}; give --pseudo-dir.`);
  const ecutwfcRy = Number(need('ecutwfc'));
  const dual = Number(option('dual') ?? 8);
  const spacings = need('kspacing').split(',').map(Number);
  if (!(ecutwfcRy > 0) || !(dual >= 4) || spacings.some((k) => !(k > 0)))
    throw new Error('--ecutwfc, --dual (≥ 4) and --kspacing must be positive numbers.');
  const work = option('work') ?? fs.mkdtempSync(path.join(os.tmpdir(), `sol27-eos-${symbol}-`));
  const jobs = Number(option('jobs') ?? 2);
  const results: (ReferenceResult & { label: string })[] = [];
  for (const k of spacings) {
    const label = `${symbol}-${ecutwfcRy}Ry-k${k}`;
    console.log(`${label}: 5-point EOS in ${path.join(work, label)}`);
    const r = await tightReference({
      element: symbol,
      structure: element.structure,
      aStartAngstrom: element.aExpAngstrom,
      pseudoDir,
      pseudopotential: file,
      ecutwfcRy,
      ecutrhoRy: Math.round(dual * ecutwfcRy),
      kSpacingPerAngstrom: k,
      degaussRy: 0.02,
      eosPoints: 5,
      eosRangePercent: 5,
      jobs,
      workDir: path.join(work, label),
    });
    console.log(
      `${label}: mesh ${r.kMesh.join('×')}, a = ${r.aAngstrom.toFixed(5)} Å, B0 = ${r.b0GPa.toFixed(1)} GPa, ${r.pwCpuSeconds.toFixed(0)} CPU s` +
        `${r.resumedRuns ? ` (${r.resumedRuns} points read from earlier runs)` : ''}`,
    );
    results.push({ label, ...r });
  }
  const first = results[0]!;
  for (const r of results.slice(1)) {
    console.log(`${r.label} vs ${first.label}: ${((100 * (r.aAngstrom - first.aAngstrom)) / first.aAngstrom).toFixed(4)} % in a`);
  }
  const out = option('out');
  if (out) {
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          command: commandLine('node --import tsx scripts/bench/sol27/eosAt.ts'),
          measuredAt: new Date().toISOString(),
          pseudopotential: file,
          results,
        },
        null,
        1,
      ) + '\n',
    );
    console.log(`written ${out}`);
  }
}

main().catch((e: Error) => {
  console.error(`eosAt: ${e.message}`);
  process.exit(1);
});
