/** Where a construct starts in the rule file (1-based). */
export interface Location {
  line: number;
  column: number;
}

/**
 * A rule file gw refuses: `syntax` when it is not Rego, `unsupported` when it is Rego outside
 * the subset gw evaluates (lib/rego/README.md), `invalid` when it is Rego that can not be
 * compiled (a recursive rule, a function called with the wrong number of arguments).
 */
export class RegoError extends Error {
  constructor(
    readonly kind: 'syntax' | 'unsupported' | 'invalid',
    readonly detail: string,
    readonly location: Location,
  ) {
    super(`line ${location.line}, column ${location.column}: ${detail}`);
  }
}

/** An evaluation stopped: its step or time budget was used up, or a rule conflicted with itself. */
export class RegoEvalError extends Error {
  constructor(
    readonly kind: 'limit' | 'conflict' | 'unsafe' | 'recursion',
    message: string,
  ) {
    super(message);
  }
}

export function unsupported(what: string, at: Location): RegoError {
  return new RegoError('unsupported', `${what} is not supported by gw's policy engine`, at);
}
