/**
 * What templates may learn about the machine: the pseudopotential a request resolves to
 * in the run's pseudopotential directory, read from its UPF header (type and suggested
 * cutoffs decide the sweep defaults and ecutrho/ecutwfc).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pseudoFileNameProblem } from '../dft/pseudoFileName';
import { readUpfHeaderFile } from '../dft/qe/upfFiles';
import type { UpfHeader } from '../dft/qe/upf';
import { ObjectiveError, type PseudopotentialInfo, type WorkflowEnvironment } from './types';

function info(file: string, h: UpfHeader): PseudopotentialInfo {
  return {
    file,
    type: h.type,
    functional: h.functional,
    ...(h.suggestedEcutwfcRy !== undefined ? { suggestedEcutwfcRy: h.suggestedEcutwfcRy } : {}),
    ...(h.suggestedEcutrhoRy !== undefined ? { suggestedEcutrhoRy: h.suggestedEcutrhoRy } : {}),
  };
}

const sameFunctional = (a: string, b: string): boolean => {
  const norm = (f: string) => (f.toUpperCase() === 'LDA' ? 'PZ' : f.toUpperCase());
  return norm(a) === norm(b);
};

/**
 * The file for an element and functional in `dir`: a named file if given; otherwise, among
 * the files whose header says that element and functional, the one select_pseudopotentials
 * would choose (scalar-relativistic before full-relativistic, stated cutoffs first, then by name).
 */
export function findPseudopotential(
  dir: string,
  req: { element: string; functional: string; file?: string },
): PseudopotentialInfo | undefined {
  const read = (f: string): UpfHeader | undefined => {
    try {
      return readUpfHeaderFile(path.join(dir, f));
    } catch {
      return undefined;
    }
  };
  if (req.file) {
    const problem = pseudoFileNameProblem(req.file);
    if (problem) throw new ObjectiveError(`pseudopotential for ${req.element}: ${problem}.`);
    const h = fs.existsSync(path.join(dir, req.file)) ? read(req.file) : undefined;
    return h ? info(req.file, h) : undefined;
  }
  if (!fs.existsSync(dir)) return undefined;
  const named = fs
    .readdirSync(dir)
    .filter((f) => /\.upf$/i.test(f) && new RegExp(`^${req.element}[._\\s,-]`, 'i').test(f))
    .sort();
  // A file pw.x could not read by its name is never chosen; if it was the only one, say why.
  const unusable = named.map(pseudoFileNameProblem).filter((p): p is string => p !== undefined);
  if (unusable.length === named.length && unusable.length > 0) {
    throw new ObjectiveError(`no usable ${req.element} pseudopotential in ${dir}: ${unusable.join('; ')}.`);
  }
  const candidates = named
    .filter((f) => !pseudoFileNameProblem(f))
    .map((f) => ({ f, h: read(f) }))
    .filter(
      (c): c is { f: string; h: UpfHeader } => !!c.h && c.h.element === req.element && sameFunctional(c.h.functional, req.functional),
    );
  // As select_pseudopotentials ranks them: files that state their suggested cutoffs first (the
  // guard can then check cutoffs against them), full-relativistic ones last.
  const ranked = [...candidates].sort(
    (a, b) =>
      Number(a.h.spinOrbit || a.h.relativistic === 'full') - Number(b.h.spinOrbit || b.h.relativistic === 'full') ||
      Number(b.h.suggestedEcutwfcRy !== undefined) - Number(a.h.suggestedEcutwfcRy !== undefined) ||
      a.f.localeCompare(b.f),
  );
  const best = ranked[0];
  return best ? info(best.f, best.h) : undefined;
}

export function workflowEnvironment(services: Record<string, unknown>): WorkflowEnvironment {
  const dir = typeof services.pseudoDir === 'string' ? services.pseudoDir : undefined;
  return dir ? { pseudopotential: (req) => findPseudopotential(dir, req) } : {};
}
