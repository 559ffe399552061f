const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
const DURATION = /^(?:(\d+(?:\.\d+)?)(ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/** A duration as the reference gateway writes it (`10s`, `1m30s`, `500ms`), in seconds; undefined when it is not one. */
export function durationSeconds(text: unknown): number | undefined {
  if (typeof text !== 'string' || !DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNITS[unit];
  return total;
}

/** Seconds written back as a duration (`90` → `1m30s`, `10` → `10s`). */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0s';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${rest || (!hours && !minutes) ? `${rest}s` : ''}`;
}
