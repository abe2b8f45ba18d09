/**
 * Which pseudopotential file names pw.x can read. ATOMIC_SPECIES is read list-directed
 * (Fortran `READ(line,*)`): a blank or a comma ends the name, a slash ends the whole line,
 * and quotes delimit; and the name is stored in 80 characters (`atom_pfile`), so a longer
 * one is cut. Such a file is refused where it is chosen, with the reason, instead of pw.x
 * (or the header check) failing later with "no header was read".
 */

export const MAX_PSEUDO_FILE_NAME = 80;

/** Why pw.x cannot read this file name in ATOMIC_SPECIES, or undefined when it can. */
export function pseudoFileNameProblem(name: string): string | undefined {
  const bad = /[\s,/'"]/.exec(name);
  if (bad) {
    const what = /\s/.test(bad[0]) ? 'a blank' : bad[0] === ',' ? 'a comma' : bad[0] === '/' ? 'a slash' : 'a quote';
    return `the file name ${JSON.stringify(name)} has ${what}, which ends the name where pw.x reads ATOMIC_SPECIES; rename the file (e.g. ${JSON.stringify(name.replace(/[\s,/'"]+/g, '_'))})`;
  }
  if (name.length > MAX_PSEUDO_FILE_NAME) {
    return `the file name ${JSON.stringify(name)} is ${name.length} characters long; pw.x keeps ${MAX_PSEUDO_FILE_NAME} of a pseudopotential's name and would not find the file: rename it`;
  }
  return undefined;
}
