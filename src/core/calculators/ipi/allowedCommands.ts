/**
 * The i-PI client commands the user allows DREAMS to start: only those listed in the user's own
 * calculators file ($DREAMS_CALCULATORS, else ~/.config/dreams/calculators.json), as
 * {"ipi": [{"command": [program, arguments...]}]}. An objective (a shared canvas, an example, an
 * outside agent's request) can name a calculator, but never a command the user has not listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DreamsError } from '../../errors';

/** Where the user's calculators file is read from. */
export function calculatorsFile(): string {
  return process.env.DREAMS_CALCULATORS ?? path.join(os.homedir(), '.config', 'dreams', 'calculators.json');
}

/** The commands the calculators file lists (none when it does not exist). */
export function allowedCalculatorCommands(file = calculatorsFile()): string[][] {
  if (!fs.existsSync(file)) return [];
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new DreamsError(
      'bad-input',
      `${file} is not JSON (${(e as Error).message}); write {"ipi": [{"command": ["python3", "client.py", "..."]}]}.`,
    );
  }
  const list = data && typeof data === 'object' ? (data as { ipi?: unknown }).ipi : undefined;
  const commands: string[][] = [];
  const ok =
    Array.isArray(list) &&
    list.every((x) => {
      const command = x && typeof x === 'object' ? (x as { command?: unknown }).command : undefined;
      if (!Array.isArray(command) || !command.length || !command.every((a) => typeof a === 'string')) return false;
      commands.push(command);
      return true;
    });
  if (!ok) throw new DreamsError('bad-input', `${file}: "ipi" must be a list of {"command": [program, arguments...]} (strings).`);
  return commands;
}

/** Whether the user's calculators file lists exactly this command. */
export function isAllowedCalculatorCommand(command: readonly string[], file = calculatorsFile()): boolean {
  return allowedCalculatorCommands(file).some((c) => c.length === command.length && c.every((a, i) => a === command[i]));
}
