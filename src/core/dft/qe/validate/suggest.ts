/** "Did you mean": the closest known name, when it is close enough to be a typo. */
import { distance } from 'fastest-levenshtein';

export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const allowed = Math.max(2, Math.floor(w.length / 3));
  return best !== undefined && bestD <= allowed ? best : undefined;
}
