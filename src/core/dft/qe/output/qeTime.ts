/**
 * Durations as QE's clocks print them: "0.18s", "1m23.45s", " 2h15m", "1d 3h 5m"
 * (QE drops the seconds above an hour). Returns seconds, or undefined.
 */
export function parseQeDuration(text: string): number | undefined {
  const m = /^\s*(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?\s*(?:(\d+(?:\.\d*)?)s)?\s*$/.exec(text);
  if (!m || (!m[1] && !m[2] && !m[3] && !m[4])) return undefined;
  return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
}
