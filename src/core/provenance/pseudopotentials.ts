/**
 * Which pseudopotential files a run used, read from its pw.x inputs (the ATOMIC_SPECIES
 * card and pseudo_dir) and from the physical settings recorded with its energies
 * (meta.settings.pseudopotentials / meta.pseudopotentials: element → {file, sha256?}).
 */
import type { ArtifactRecord } from './types';
import { elementOfSpeciesLabel } from '../dft/qe/input/cards';

export interface PseudoUse {
  element: string;
  file: string;
  /** pseudo_dir named in the input that used it. */
  pseudoDir?: string;
  /** The hash recorded when the run used it, when the settings carried one. */
  recordedSha256?: string;
  /** Artifact that named it. */
  artifact: string;
}

/** Species lines of the ATOMIC_SPECIES card by element: "Al 26.98 Al.pz-vbc.UPF", "Pt1 195.08 Pt.UPF" is Pt. */
export function speciesOfPwInput(text: string): { element: string; file: string }[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*ATOMIC_SPECIES\b/i.test(l));
  if (start < 0) return [];
  const species: { element: string; file: string }[] = [];
  for (const line of lines.slice(start + 1)) {
    const t = line.replace(/[!#].*$/, '').trim();
    if (t === '') continue;
    const m = /^([A-Za-z][A-Za-z0-9_-]{0,5})\s+\S+\s+(\S+)$/.exec(t);
    if (!m) break; // the next card
    species.push({ element: elementOfSpeciesLabel(m[1]!), file: m[2]! });
  }
  return species;
}

/** pseudo_dir = '...' in the &control namelist, if set. */
export function pseudoDirOfPwInput(text: string): string | undefined {
  return /\bpseudo_dir\s*=\s*(['"])(.*?)\1/i.exec(text)?.[2];
}

/** Every pseudopotential a run's artifacts name, deduplicated by element and file. */
export function pseudopotentialsUsed(
  artifacts: readonly ArtifactRecord[],
  readText: (a: ArtifactRecord) => string | undefined,
): PseudoUse[] {
  const uses = new Map<string, PseudoUse>();
  const add = (u: PseudoUse): void => {
    const key = `${u.element}\u0000${u.file}`;
    const prev = uses.get(key);
    uses.set(key, { ...u, ...prev, recordedSha256: prev?.recordedSha256 ?? u.recordedSha256, pseudoDir: prev?.pseudoDir ?? u.pseudoDir });
  };
  for (const a of artifacts) {
    if (a.kind === 'qe-input') {
      const text = readText(a);
      if (text) {
        const pseudoDir = pseudoDirOfPwInput(text);
        for (const s of speciesOfPwInput(text)) add({ ...s, ...(pseudoDir ? { pseudoDir } : {}), artifact: a.id });
      }
    }
    const meta = a.meta as { settings?: { pseudopotentials?: unknown }; pseudopotentials?: unknown } | undefined;
    const table = meta?.settings?.pseudopotentials ?? meta?.pseudopotentials;
    if (table && typeof table === 'object') {
      for (const [element, p] of Object.entries(table as Record<string, { file?: unknown; sha256?: unknown }>)) {
        if (typeof p?.file !== 'string') continue;
        add({ element, file: p.file, ...(typeof p.sha256 === 'string' ? { recordedSha256: p.sha256 } : {}), artifact: a.id });
      }
    }
  }
  return [...uses.values()];
}
