/** `dreams parse FILE`: what the pw.x output parser extracts from an output file. */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parsePwOutput, type PwOutput } from '../../core/dft/qe/output';
import { registerCliCommand } from '../cli';

const USAGE = `Usage: dreams parse FILE [--json]

Reads a pw.x output (QE 6.x or 7.x) and prints what it contains: final and per-iteration
energies, SCF convergence, Fermi energy, forces, stress, magnetization, timing, warnings,
the error block, relaxation steps and BEEF ensemble energies.

  --json    print everything as JSON (energies in Ry as printed by pw.x, plus totalEnergyEv;
            geometry in Å)

Exit status: 0 the file was read, 2 bad usage or an unreadable file.`;

function summary(file: string, o: PwOutput): string {
  const rows: [string, string | undefined][] = [
    ['program', o.codeVersion ? `pw.x ${o.codeVersion}` : undefined],
    ['calculation', o.calculation],
    ['finished', o.jobDone ? 'yes (JOB DONE)' : 'no'],
    ['error', o.error ? `${o.error.routine} (${o.error.code ?? '?'}): ${o.error.message}` : undefined],
    ['SCF', o.scfCycles.length ? `${o.scfConverged ? 'converged' : 'NOT converged'} in ${o.scfIterations ?? '?'} iterations (last of ${o.scfCycles.length} SCF run${o.scfCycles.length === 1 ? '' : 's'})` : undefined],
    ['total energy', o.totalEnergyRy !== undefined ? `${o.totalEnergyRy} Ry = ${o.totalEnergyEv!.toFixed(6)} eV` : undefined],
    ['Fermi energy', o.fermiEnergyEv !== undefined ? `${o.fermiEnergyEv} eV` : undefined],
    ['highest occupied level', o.highestOccupiedEv !== undefined ? `${o.highestOccupiedEv} eV` : undefined],
    ['total force', o.totalForceRyPerBohr !== undefined ? `${o.totalForceRyPerBohr} Ry/bohr` : undefined],
    ['pressure', o.pressureKbar !== undefined ? `${o.pressureKbar} kbar` : undefined],
    ['magnetization', o.totalMagnetization !== undefined ? `total ${o.totalMagnetization}, absolute ${o.absoluteMagnetization} Bohr mag/cell` : undefined],
    ['relaxation', o.relaxation ? `${o.relaxation.converged ? 'converged' : 'not converged'}${o.relaxation.bfgsSteps !== undefined ? ` after ${o.relaxation.bfgsSteps} BFGS steps` : ''}, ${o.ionicSteps.length} geometries` : undefined],
    ['BEEF ensemble', o.beefEnsembleEv ? `${o.beefEnsembleEv.length} members` : undefined],
    ['time', o.wallTimeSeconds !== undefined ? `${o.wallTimeSeconds} s wall, ${o.cpuTimeSeconds} s CPU` : undefined],
    ['pseudopotentials', o.pseudopotentials ? Object.entries(o.pseudopotentials).map(([el, f]) => `${el}: ${f}`).join(', ') : undefined],
  ];
  const lines = [file, ...rows.filter(([, v]) => v !== undefined).map(([k, v]) => `  ${k.padEnd(24)}${v}`)];
  for (const w of o.warnings) lines.push(`  warning${o.warningCounts[w]! > 1 ? ` (×${o.warningCounts[w]})` : ''}: ${w}`);
  return lines.join('\n');
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  } catch (e) {
    console.error(`dreams parse: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.positionals.length !== 1) {
    console.error(`dreams parse: give exactly one pw.x output file (got ${parsed.positionals.length}).\n\n${USAGE}`);
    return 2;
  }
  const file = parsed.positionals[0]!;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`dreams parse: cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return 2;
  }
  const out = parsePwOutput(text);
  console.log(parsed.values.json ? JSON.stringify(out, null, 2) : summary(file, out));
  return 0;
}

registerCliCommand({ name: 'parse', summary: 'print what a pw.x output contains', usage: USAGE, run });
