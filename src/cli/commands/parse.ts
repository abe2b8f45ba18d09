/** `dreams parse FILE`: what the pw.x output parser extracts from an output file. */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parsePwOutput, type PwOutput } from '../../core/dft/qe/output';
import { readCrashBeside } from '../../core/dft/qe/outputFiles';
import { registerCliCommand } from '../cli';

const USAGE = `Usage: dreams parse FILE [--json] [--press KBAR]

Reads a pw.x output (QE 6.x or 7.x) and prints what it contains: final and per-iteration
energies, SCF convergence, Fermi energy, forces, stress, magnetization, timing, warnings,
the error block, relaxation steps and BEEF ensemble energies, and why the run failed (one
kind: pw-error, time-limit, scf-not-converged, relax-scf-not-converged, steps-exhausted,
bfgs-failed, final-scf-above-thresholds, interrupted) with the line of the output that shows
it. pw.x's CRASH file beside FILE is read when the output lacks the error.

  --json         print everything as JSON (energies in Ry as printed by pw.x, plus totalEnergyEv;
                 geometry in Å)
  --press KBAR   the input's target pressure, for the final SCF of a vc-relax (read back from
                 the output's enthalpy when not given)

Exit status: 0 the file was read, 2 bad usage or an unreadable file.`;

function summary(file: string, o: PwOutput): string {
  const rows: [string, string | undefined][] = [
    ['program', o.codeVersion ? `pw.x ${o.codeVersion}` : undefined],
    ['calculation', o.calculation],
    ['finished', o.jobDone ? 'yes (JOB DONE)' : 'no'],
    ['error', o.error ? `${o.error.routine} (${o.error.code ?? '?'}): ${o.error.message}` : undefined],
    ['failure', o.failure ? `${o.failure.kind}: ${o.failure.detail}` : undefined],
    [
      'evidence',
      o.failure?.evidence ? `${o.failure.source === 'crash' ? 'CRASH' : `line ${o.failure.line}`}: ${o.failure.evidence}` : undefined,
    ],
    [
      'SCF',
      o.scfCycles.length
        ? `${o.scfConverged ? 'converged' : 'NOT converged'} in ${o.scfIterations ?? '?'} iterations (last of ${o.scfCycles.length} SCF run${o.scfCycles.length === 1 ? '' : 's'})`
        : undefined,
    ],
    ['total energy', o.totalEnergyRy !== undefined ? `${o.totalEnergyRy} Ry = ${o.totalEnergyEv!.toFixed(6)} eV` : undefined],
    [
      'with Makov-Payne',
      o.totalEnergyMakovPayneRy !== undefined
        ? `${o.totalEnergyMakovPayneRy} Ry (the total energy corrected for the isolated system's multipoles)`
        : undefined,
    ],
    ['Fermi energy', o.fermiEnergyEv !== undefined ? `${o.fermiEnergyEv} eV` : undefined],
    ['highest occupied level', o.highestOccupiedEv !== undefined ? `${o.highestOccupiedEv} eV` : undefined],
    ['total force', o.totalForceRyPerBohr !== undefined ? `${o.totalForceRyPerBohr} Ry/bohr` : undefined],
    ['pressure', o.pressureKbar !== undefined ? `${o.pressureKbar} kbar` : undefined],
    [
      'magnetization',
      o.totalMagnetization !== undefined ? `total ${o.totalMagnetization}, absolute ${o.absoluteMagnetization} Bohr mag/cell` : undefined,
    ],
    [
      'relaxation',
      o.relaxation
        ? `${o.relaxation.converged ? 'converged' : 'not converged'}${o.relaxation.bfgsSteps !== undefined ? ` after ${o.relaxation.bfgsSteps} BFGS steps` : ''}, ${o.ionicSteps.length} geometries`
        : undefined,
    ],
    ['BEEF ensemble', o.beefEnsembleEv ? `${o.beefEnsembleEv.length} members` : undefined],
    ['time', o.wallTimeSeconds !== undefined ? `${o.wallTimeSeconds} s wall, ${o.cpuTimeSeconds} s CPU` : undefined],
    [
      'pseudopotentials',
      o.pseudopotentials
        ? Object.entries(o.pseudopotentials)
            .map(([el, f]) => `${el}: ${f}`)
            .join(', ')
        : undefined,
    ],
  ];
  const lines = [file, ...rows.filter(([, v]) => v !== undefined).map(([k, v]) => `  ${k.padEnd(24)}${v}`)];
  for (const w of o.warnings) lines.push(`  warning${o.warningCounts[w]! > 1 ? ` (×${o.warningCounts[w]})` : ''}: ${w}`);
  return lines.join('\n');
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, press: { type: 'string' } } });
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
    console.error(
      `dreams parse: cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
    return 2;
  }
  const press = parsed.values.press !== undefined ? Number(parsed.values.press) : undefined;
  if (press !== undefined && !Number.isFinite(press)) {
    console.error(`dreams parse: --press takes the target pressure in kbar (a number), not "${parsed.values.press}".\n\n${USAGE}`);
    return 2;
  }
  const crash = readCrashBeside(file);
  const out = parsePwOutput(text, { ...(crash !== undefined ? { crash } : {}), ...(press !== undefined ? { pressKbar: press } : {}) });
  console.log(parsed.values.json ? JSON.stringify(out, null, 2) : summary(file, out));
  return 0;
}

registerCliCommand({ name: 'parse', summary: 'print what a pw.x output contains', usage: USAGE, run });
