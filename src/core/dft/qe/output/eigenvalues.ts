/**
 * The Kohn-Sham eigenvalues pw.x printed at the end of its last SCF, nscf or bands run ("k = ...
 * bands (ev):" blocks, one list per k-point, under "SPIN UP" / "SPIN DOWN" headers for nspin 2).
 * pw.x prints them only for fewer than 100 k-points unless verbosity='high'; undefined when none
 * were printed. Energies in eV, as printed.
 */

export interface PrintedEigenvalues {
  /** up[k][band], eV; of an unpolarised run the only channel. */
  up: number[][];
  /** nspin 2: the minority channel on the same k-points. */
  down?: number[][];
}

const NUMBER = /-?\d+\.\d+/g;

export function printedEigenvalues(text: string): PrintedEigenvalues | undefined {
  const lines = text.split('\n');
  // the last listing: after the last "End of self-consistent calculation" or "End of band structure calculation"
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/End of (self-consistent|band structure) calculation/.test(lines[i]!)) {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  const up: number[][] = [];
  const down: number[][] = [];
  let into = up;
  let current: number[] | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (t.includes('SPIN UP')) into = up;
    else if (t.includes('SPIN DOWN')) into = down;
    else if (/^k =.*bands \(ev\)/.test(t)) {
      current = [];
      into.push(current);
    } else if (t.startsWith('occupation numbers')) current = undefined;
    else if (current && /^-?\d/.test(t)) current.push(...(t.match(NUMBER) ?? []).map(Number));
    else if (t && current && current.length) current = undefined;
    if (/Fermi energ|highest occupied|Writing output|total energy|^!/.test(t)) break;
  }
  if (!up.length || up.some((b) => !b.length)) return undefined;
  if (down.length && down.length !== up.length) return undefined;
  return { up, ...(down.length ? { down } : {}) };
}
