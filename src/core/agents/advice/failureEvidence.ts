/**
 * What the advisor reads about a failed pw.x run: the input's SCF-relevant settings, the
 * parsed output (SCF history, warnings, pw.x's error block) and the job's own error.
 */
import { arrayIn, elementOfSpeciesLabel, numberIn, numberOf, parsePwInput, readAtomicSpecies, stringIn } from '../../dft/qe/input';
import type { PwOutput } from '../../dft/qe/output';
import { parsePwOutput } from '../../dft/qe/output';

export interface InputSettings {
  elements: string[];
  natoms?: number;
  ecutwfcRy?: number;
  ecutrhoRy?: number;
  convThrRy?: number;
  mixingBeta?: number;
  mixingMode?: string;
  electronMaxstep?: number;
  /** Ionic steps of a relaxation or MD (nstep). */
  nstep?: number;
  diagonalization?: string;
  occupations?: string;
  smearing?: string;
  degaussRy?: number;
  nspin?: number;
  startingMagnetization: Record<string, number>;
  /** Whether the cell has a vacuum region (a slab or molecule): mixing_mode 'local-TF' helps there. */
  hasVacuum?: boolean;
}

export interface FailureEvidence {
  input: InputSettings;
  output?: PwOutput;
  /** pw.x's error block, the job's error, or the tool's error. */
  errorText: string;
  jobState?: string;
}

/** pw.x defaults (6.7) for the variables the advisor reasons about. */
export const PW_DEFAULTS = {
  mixingBeta: 0.7,
  electronMaxstep: 100,
  convThrRy: 1e-6,
  diagonalization: 'david',
  mixingMode: 'plain',
  nstep: 50,
};

export function inputSettings(text: string): InputSettings {
  const input = parsePwInput(text);
  const species = readAtomicSpecies(input)?.value ?? [];
  const elements = species.map((s) => elementOfSpeciesLabel(s.label));
  const startingMagnetization: Record<string, number> = {};
  for (const [index, v] of arrayIn(input, 'system', 'starting_magnetization')) {
    const el = elements[index - 1];
    const n = numberOf(v.value);
    if (el && n !== undefined) startingMagnetization[el] = n;
  }
  const opt = <T>(k: string, v: T | undefined) => (v === undefined ? {} : { [k]: v });
  return {
    elements,
    startingMagnetization,
    ...opt('natoms', numberIn(input, 'system', 'nat')),
    ...opt('ecutwfcRy', numberIn(input, 'system', 'ecutwfc')),
    ...opt('ecutrhoRy', numberIn(input, 'system', 'ecutrho')),
    ...opt('convThrRy', numberIn(input, 'electrons', 'conv_thr')),
    ...opt('mixingBeta', numberIn(input, 'electrons', 'mixing_beta')),
    ...opt('mixingMode', stringIn(input, 'electrons', 'mixing_mode')),
    ...opt('electronMaxstep', numberIn(input, 'electrons', 'electron_maxstep')),
    ...opt('nstep', numberIn(input, 'control', 'nstep')),
    ...opt('diagonalization', stringIn(input, 'electrons', 'diagonalization')),
    ...opt('occupations', stringIn(input, 'system', 'occupations')),
    ...opt('smearing', stringIn(input, 'system', 'smearing')),
    ...opt('degaussRy', numberIn(input, 'system', 'degauss')),
    ...opt('nspin', numberIn(input, 'system', 'nspin')),
  };
}

/**
 * `crashText` is pw.x's CRASH file from the run's directory when there is one: its error counts
 * when the output lacks one. The input's press lets the parser judge a vc-relax's final SCF.
 */
export function failureEvidence(
  inputText: string,
  outputText: string | undefined,
  errors: (string | undefined)[],
  jobState?: string,
  crashText?: string,
): FailureEvidence {
  const press = numberIn(parsePwInput(inputText), 'cell', 'press');
  const output =
    outputText || crashText !== undefined
      ? parsePwOutput(outputText ?? '', {
          ...(crashText !== undefined ? { crash: crashText } : {}),
          ...(press !== undefined ? { pressKbar: press } : {}),
        })
      : undefined;
  const pwError = output?.error ? `Error in routine ${output.error.routine}: ${output.error.message}` : undefined;
  const errorText = [pwError, ...errors].filter((e): e is string => !!e && e.trim() !== '').join('\n');
  return { input: inputSettings(inputText), ...(output ? { output } : {}), errorText, ...(jobState ? { jobState } : {}) };
}

const CURRENT: Record<string, (s: InputSettings) => unknown> = {
  conv_thr: (s) => s.convThrRy ?? PW_DEFAULTS.convThrRy,
  ecutwfc: (s) => s.ecutwfcRy,
  ecutrho: (s) => s.ecutrhoRy ?? (s.ecutwfcRy !== undefined ? 4 * s.ecutwfcRy : undefined),
  mixing_beta: (s) => s.mixingBeta ?? PW_DEFAULTS.mixingBeta,
  mixing_mode: (s) => s.mixingMode ?? PW_DEFAULTS.mixingMode,
  electron_maxstep: (s) => s.electronMaxstep ?? PW_DEFAULTS.electronMaxstep,
  nstep: (s) => s.nstep ?? PW_DEFAULTS.nstep,
  diagonalization: (s) => s.diagonalization ?? PW_DEFAULTS.diagonalization,
  degauss: (s) => s.degaussRy,
  nspin: (s) => s.nspin ?? 1,
  occupations: (s) => s.occupations ?? 'fixed',
  smearing: (s) => s.smearing,
};

/** The value a pw.x variable has in the failed input (pw.x's default where the input leaves it out). */
export function currentValueOf(parameter: string, s: InputSettings): unknown {
  const magnetization = /^starting_magnetization\((\w+)\)$/.exec(parameter);
  if (magnetization) return s.startingMagnetization[magnetization[1]!] ?? 0;
  return CURRENT[parameter.toLowerCase()]?.(s);
}
