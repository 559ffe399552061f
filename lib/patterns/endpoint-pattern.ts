import { compileTenantPattern, PatternError } from './tenant-pattern';

/** Matches the start of a path below the listen path (docs/gateway.md#endpoint-rules). */
export interface PathMatcher {
  test(relativePath: string): boolean;
}

const PLACEHOLDER = /\{[^/{}]+\}/g;
/** Everything that makes a path a regular expression, except '.' (any character), handled below. */
const REGEX_SYNTAX = /[\\^$|?*+()[\]{}]/;

/**
 * An endpoint path as the reference gateway reads it: a regular expression matched against the
 * start of the path, where `{name}` stands for one segment. Most are plain paths (`/users`,
 * `/users/{id}/orders`, `/v1.0/x`); those are matched by hand without a regex engine, the rest
 * run on RE2 (linear time). Throws a PatternError naming the path when it does not compile.
 */
export function compileEndpointPattern(path: string, ignoreCase: boolean): PathMatcher {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const literals = withSlash.split(PLACEHOLDER);
  const plain = literals.every(
    (literal, i) =>
      !REGEX_SYNTAX.test(literal) &&
      (i === 0 || (literal === '' ? i === literals.length - 1 : literal.startsWith('/'))),
  );
  if (plain) {
    return plainMatcher(literals, ignoreCase);
  }
  try {
    return compileTenantPattern(`^${withSlash.replace(PLACEHOLDER, '([^/]+)')}`, { ignoreCase });
  } catch (err) {
    throw new PatternError(`endpoint path '${path}' is not a valid pattern: ${(err as Error).message}`);
  }
}

/**
 * `literals` alternate with whole-segment placeholders: each literal after the first starts
 * with '/' (or is the empty tail), so a placeholder takes exactly the rest of its segment.
 */
function plainMatcher(literals: string[], ignoreCase: boolean): PathMatcher {
  const parts = ignoreCase ? literals.map((l) => l.toLowerCase()) : literals;
  if (parts.length === 1 && !parts[0].includes('.')) {
    const [prefix] = parts;
    return { test: ignoreCase ? (p) => p.toLowerCase().startsWith(prefix) : (p) => p.startsWith(prefix) };
  }
  return {
    test(relativePath) {
      const path = ignoreCase ? relativePath.toLowerCase() : relativePath;
      let at = 0;
      for (let i = 0; i < parts.length; i++) {
        if (i > 0) {
          // a placeholder: one or more characters up to the next '/'
          const end = path.indexOf('/', at);
          const stop = end === -1 ? path.length : end;
          if (stop === at) return false;
          at = stop;
        }
        if (!literalAt(parts[i], path, at)) return false;
        at += parts[i].length;
      }
      return true;
    },
  };
}

/** A literal where '.' is any character but a line break, as in a regular expression. */
function literalAt(literal: string, path: string, at: number): boolean {
  if (at + literal.length > path.length) return false;
  for (let i = 0; i < literal.length; i++) {
    const expected = literal.charCodeAt(i);
    const actual = path.charCodeAt(at + i);
    if (expected === actual) continue;
    if (expected !== 46 /* . */ || actual === 10 || actual === 13 || actual === 0x2028 || actual === 0x2029)
      return false;
  }
  return true;
}
