/**
 * Go's duration strings (time.ParseDuration), the one parser of every Bento duration in gw: stream
 * settings (`timeout`, `retry_period`, ...) and Bloblang's `parse_duration`. A sequence of decimal
 * numbers, each with a unit (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`), with an optional sign:
 * `300ms`, `-1.5h`, `2h45m`; `0` alone needs no unit. Values are int64 nanoseconds, as Go's.
 */

/** A text that is not a Go duration; the message is Go's (`time: missing unit in duration "5"`). */
export class DurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationError';
  }
}

const UNIT_NANOSECONDS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n, // micro sign
  '\u03bcs': 1_000n, // Greek small letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** 2^63: a magnitude may reach it only as the most negative int64 */
const LIMIT = 1n << 63n;

/** Nanoseconds of a Go duration string; throws DurationError with Go's message otherwise. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${goQuote(text)}`);
  let at = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    at = 1;
  }
  if (text.slice(at) === '0') return 0n;
  if (at === text.length) throw invalid();
  let total = 0n;
  while (at < text.length) {
    if (text[at] !== '.' && !isDigit(text[at])) throw invalid();
    const whole = leadingInteger(text, at);
    if (whole === undefined) throw invalid();
    at = whole.end;
    let fraction: Fraction = { digits: 0n, scale: 1, end: at };
    if (text[at] === '.') fraction = leadingFraction(text, at + 1);
    if (whole.end === whole.start && fraction.end === at + 1) throw invalid();
    at = fraction.end;
    const unitStart = at;
    while (at < text.length && text[at] !== '.' && !isDigit(text[at])) at++;
    const unitName = text.slice(unitStart, at);
    if (unitName === '') throw new DurationError(`time: missing unit in duration ${goQuote(text)}`);
    const unit = UNIT_NANOSECONDS[unitName];
    if (unit === undefined) {
      throw new DurationError(`time: unknown unit ${goQuote(unitName)} in duration ${goQuote(text)}`);
    }
    if (whole.value > LIMIT / unit) throw invalid();
    let value = whole.value * unit;
    if (fraction.digits > 0n) {
      // as Go: float64 keeps a fraction of an hour exact to the nanosecond
      value += BigInt(Math.trunc(Number(fraction.digits) * (Number(unit) / fraction.scale)));
      if (value > LIMIT) throw invalid();
    }
    total += value;
    if (total > LIMIT) throw invalid();
  }
  if (negative) return -total;
  if (total > LIMIT - 1n) throw invalid();
  return total;
}

/**
 * Milliseconds of a Go duration string (fractional below a millisecond, negative with a `-`), or
 * undefined when `text` is not one. A setting that can not be negative refuses that itself.
 */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return Number(parseGoDuration(text)) / 1e6;
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}

interface Integer {
  value: bigint;
  start: number;
  end: number;
}

interface Fraction {
  digits: bigint;
  scale: number;
  end: number;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** The digits from `start`; undefined when they exceed 2^63. */
function leadingInteger(text: string, start: number): Integer | undefined {
  let value = 0n;
  let at = start;
  for (; isDigit(text[at]); at++) {
    value = value * 10n + BigInt(text.charCodeAt(at) - 48);
    if (value > LIMIT) return undefined;
  }
  return { value, start, end: at };
}

/** The digits after a decimal point; those beyond int64 precision are read and ignored, as Go does. */
function leadingFraction(text: string, start: number): Fraction {
  let digits = 0n;
  let scale = 1;
  let overflow = false;
  let at = start;
  for (; isDigit(text[at]); at++) {
    if (overflow) continue;
    const next = digits * 10n + BigInt(text.charCodeAt(at) - 48);
    if (digits > (LIMIT - 1n) / 10n || next > LIMIT) {
      overflow = true;
      continue;
    }
    digits = next;
    scale *= 10;
  }
  return { digits, scale, end: at };
}

/** Go's quoting in duration errors: non-ASCII and control characters as their UTF-8 bytes (`\xc2\xb5`). */
function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(char, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += char === '"' || char === '\\' ? `\\${char}` : char;
    }
  }
  return `${out}"`;
}
