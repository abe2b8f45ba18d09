/**
 * select_pseudopotentials: one UPF file per element from the configured library, read
 * from its header (element, functional, suggested cutoffs) and hashed, so the cutoffs can
 * be checked against the suggestion and energies compared by the exact files used.
 */
import { defineTool } from './defineTool';
import { ARTIFACTS } from '../artifacts/contracts';
import { pseudoFileNameProblem } from '../dft/pseudoFileName';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readUpfHeaderFile } from '../dft/qe/upfFiles';
import type { UpfHeader } from '../dft/qe/upf';
import { ARTIFACT, type PseudopotentialEntry, type PseudopotentialTableValue } from '../artifacts/shapes';
import { service, type CatalogueContext } from './services';

interface Args {
  elements: string[];
  functional: 'PBE' | 'PZ' | 'PBEsol' | 'BEEF-vdW';
  prefer?: Record<string, string>;
}

/** BEEF-vdW calculations use PBE pseudopotentials (there are no BEEF-generated ones). */
const HEADER_FUNCTIONAL: Record<Args['functional'], string> = { PBE: 'PBE', PZ: 'PZ', PBEsol: 'PBESOL', 'BEEF-vdW': 'PBE' };

interface Candidate {
  file: string;
  header: UpfHeader;
}

function candidates(dir: string, element: string): { ok: Candidate[]; unreadable: string[]; unusable: string[] } {
  const ok: Candidate[] = [];
  const unreadable: string[] = [];
  const unusable: string[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/\.upf$/i.test(file) || !new RegExp(`^${element}[._\\s,-]`, 'i').test(file)) continue;
    const nameProblem = pseudoFileNameProblem(file);
    if (nameProblem) {
      unusable.push(nameProblem);
      continue;
    }
    try {
      const header = readUpfHeaderFile(path.join(dir, file));
      if (header.element.toLowerCase() === element.toLowerCase()) ok.push({ file, header });
    } catch {
      unreadable.push(file);
    }
  }
  return { ok, unreadable, unusable };
}

const TYPE_NAME: Record<string, string> = { NC: 'norm-conserving', US: 'ultrasoft', PAW: 'PAW', SL: 'semilocal' };

function entryOf(dir: string, c: Candidate): PseudopotentialEntry {
  return {
    file: c.file,
    sha256: crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, c.file)))
      .digest('hex'),
    functional: c.header.functional,
    type: c.header.type,
    ...(c.header.suggestedEcutwfcRy !== undefined ? { suggestedEcutwfcRy: c.header.suggestedEcutwfcRy } : {}),
    ...(c.header.suggestedEcutrhoRy !== undefined ? { suggestedEcutrhoRy: c.header.suggestedEcutrhoRy } : {}),
  };
}

function choose(ctx: CatalogueContext, dir: string, element: string, args: Args): { entry: PseudopotentialEntry; alternatives: string[] } {
  const want = HEADER_FUNCTIONAL[args.functional];
  const { ok, unreadable, unusable } = candidates(dir, element);
  const pinned = args.prefer?.[element];
  if (pinned !== undefined) {
    if (pinned.includes('/') || pinned.includes('\\'))
      throw new Error(`prefer.${element} must be a file name in the pseudopotential library, not a path (got "${pinned}").`);
    const nameProblem = pseudoFileNameProblem(pinned);
    if (nameProblem) throw new Error(`prefer.${element}: ${nameProblem}.`);
    const c = ok.find((x) => x.file === pinned);
    if (!c)
      throw new Error(
        `prefer.${element} = "${pinned}" is not a readable ${element} UPF file in ${dir}; available: ${ok.map((x) => x.file).join(', ') || 'none'}.`,
      );
    if (c.header.functional.toUpperCase() !== want) ctx.progress(`${pinned} was generated with ${c.header.functional}, not ${want}`);
    return { entry: entryOf(dir, c), alternatives: [] };
  }
  const matching = ok.filter((c) => c.header.functional.toUpperCase() === want);
  if (matching.length === 0) {
    throw new Error(
      `no ${element} pseudopotential for ${args.functional} in ${dir}: ` +
        (ok.length ? `found ${ok.map((c) => `${c.file} (${c.header.functional})`).join(', ')}` : 'no UPF file for the element') +
        `${unreadable.length ? `; unreadable: ${unreadable.join(', ')}` : ''}${unusable.length ? `; not usable: ${unusable.join('; ')}` : ''}. Add a ${want} pseudopotential for ${element} to the library, or pin one with prefer.`,
    );
  }
  // Files whose authors state the cutoffs they need are preferred: the guard can then check them.
  const ranked = [...matching].sort(
    (a, b) =>
      Number(b.header.suggestedEcutwfcRy !== undefined) - Number(a.header.suggestedEcutwfcRy !== undefined) || a.file.localeCompare(b.file),
  );
  return { entry: entryOf(dir, ranked[0]!), alternatives: ranked.slice(1).map((c) => c.file) };
}

export const selectPseudopotentialsTool = defineTool({
  name: 'select_pseudopotentials',
  description:
    "Choose one pseudopotential (UPF) per element from the configured library for a functional, with each file's sha256 and " +
    'the cutoffs its header suggests. Files that state their suggested cutoffs are preferred; prefer pins a file by name.',
  roles: ['dft'],
  input: {
    type: 'object',
    properties: {
      elements: { type: 'array', items: { type: 'string', pattern: '^[A-Z][a-z]?$' }, minItems: 1, uniqueItems: true },
      functional: {
        type: 'string',
        enum: ['PBE', 'PZ', 'PBEsol', 'BEEF-vdW'],
        description: 'Exchange-correlation functional (BEEF-vdW uses PBE pseudopotentials).',
      },
      prefer: {
        type: 'object',
        additionalProperties: { type: 'string', pattern: '^[^/\\\\]+$' },
        description: 'Element -> UPF file name in the library, to pin a particular file.',
      },
    },
    required: ['elements', 'functional'],
    additionalProperties: false,
  },
  rules: [],
  outputs: [ARTIFACTS.pseudopotentials],
  parameterNotes: { functional: 'the functional the study asks for; PBE unless stated.' },
  async run(args, ctx) {
    // The summary is read by people and models: cutoffs to 0.1 Ry (the table keeps the file's values).
    const ry = (x: number) => Number(x.toFixed(1));
    const dir = service(ctx, 'pseudoDir', 'select_pseudopotentials', 'set the pseudopotential directory (dreams.pseudoDir)');
    const byElement: Record<string, PseudopotentialEntry> = {};
    const notes: string[] = [];
    for (const el of args.elements) {
      const { entry, alternatives } = choose(ctx, dir, el, args);
      byElement[el] = entry;
      const cut =
        entry.suggestedEcutwfcRy !== undefined
          ? `suggests ≥ ${ry(entry.suggestedEcutwfcRy)} Ry / ${entry.suggestedEcutrhoRy !== undefined ? ry(entry.suggestedEcutrhoRy) : '?'} Ry`
          : 'states no cutoffs';
      notes.push(
        `${el}: ${entry.file} (${entry.functional}, ${TYPE_NAME[entry.type ?? ''] ?? entry.type}, ${cut})${alternatives.length ? `; also ${alternatives.join(', ')}` : ''}`,
      );
    }
    const value: PseudopotentialTableValue = { directory: dir, byElement };
    return { artifacts: [{ kind: 'table', name: ARTIFACT.pseudopotentials, value }], summary: notes.join('\n') };
  },
});
