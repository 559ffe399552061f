import { defaultTimeBudget, withTimeBudget } from './budget';
import { MappingError, MappingSyntaxError } from './errors';
import { toSyntaxError } from './parse-mapping';
import { parseQuery } from './parse-query';
import { execValueForText, type MappingMessage, type MappingOptions } from './runner';
import type { Query } from './query';
import { Cursor, ParseFailure } from './scanner';

/**
 * Interpolated configuration strings (`topic: events-${! meta("kafka_key") }`): text with
 * `${! query }` parts, each query a Bloblang query; `${{! … }` writes a literal `${! … }`.
 */
export interface Interpolation {
  readonly source: string;
  readonly parts: ReadonlyArray<string | Query>;
  /** `count(name)` totals of this interpolation */
  readonly counters: Map<string, bigint>;
}

export function parseInterpolation(text: string): Interpolation | MappingSyntaxError {
  const parts: Array<string | Query> = [];
  const c = new Cursor(text);
  let literal = '';
  try {
    while (!c.done) {
      if (c.peek('${{!')) {
        literal += '${!';
        c.pos += 4;
        continue;
      }
      if (!c.peek('${!')) {
        literal += c.char();
        c.pos++;
        continue;
      }
      if (literal) {
        parts.push(literal);
        literal = '';
      }
      c.pos += 3;
      c.gap();
      parts.push(parseQuery(c, { named: new Set() }));
      c.gap();
      c.expect('}', 'end of expression');
    }
  } catch (err) {
    if (err instanceof ParseFailure) return toSyntaxError(text, err);
    return new MappingSyntaxError(
      1,
      1,
      err instanceof RangeError
        ? 'expression is nested too deeply'
        : `expression could not be parsed: ${(err as Error)?.message}`,
    );
  }
  if (literal) parts.push(literal);
  return { source: text, parts, counters: new Map() };
}

/** The interpolated string for one message, or the MappingError of a failing query. */
export function interpolate(
  interpolation: Interpolation,
  message: MappingMessage,
  options?: MappingOptions,
): string | MappingError {
  // one budget for the whole string; each query's own budget ends no later
  const millis = options?.limits?.maxMillis ?? defaultTimeBudget();
  return withTimeBudget(millis, () => interpolateParts(interpolation, message, options));
}

function interpolateParts(
  interpolation: Interpolation,
  message: MappingMessage,
  options?: MappingOptions,
): string | MappingError {
  let out = '';
  for (const part of interpolation.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const text = execValueForText(part, message, options, interpolation.counters);
    if (text instanceof MappingError) return text;
    out += text;
  }
  return out;
}
