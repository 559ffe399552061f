/**
 * Bento's duration strings (Go's time.ParseDuration): `500ms`, `5s`, `1m30s`, `1h`. Returns
 * milliseconds, or undefined when the text is not a duration.
 */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  const source = text.trim();
  while (at < source.length) {
    part.lastIndex = at;
    const match = part.exec(source);
    if (!match) return undefined;
    total += Number(match[1]) * units[match[2]];
    at = part.lastIndex;
  }
  return total;
}
