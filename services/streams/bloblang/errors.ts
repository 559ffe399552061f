/**
 * The two failures a mapping reports. Neither escapes as anything else: parseMapping returns a
 * MappingSyntaxError, execute returns a MappingError (the message fails, the stream goes on).
 */
export const GW_ERR_STREAMS_MAPPING_SYNTAX = 'GW_ERR_STREAMS_MAPPING_SYNTAX';
export const GW_ERR_STREAMS_MAPPING_FAILED = 'GW_ERR_STREAMS_MAPPING_FAILED';

export class MappingSyntaxError extends Error {
  readonly code = GW_ERR_STREAMS_MAPPING_SYNTAX;
  constructor(
    /** 1-based line of the offending character */
    readonly line: number,
    /** 1-based column (character within the line) */
    readonly column: number,
    /** what went wrong, without the position ("expected query") */
    readonly detail: string,
  ) {
    super(`line ${line} char ${column}: ${detail}`);
    this.name = 'MappingSyntaxError';
  }
}

export class MappingError extends Error {
  readonly code = GW_ERR_STREAMS_MAPPING_FAILED;
  constructor(
    message: string,
    /** the mapping hit one of the limits that keep it from stalling the node (time, steps, size, depth) */
    readonly limit = false,
  ) {
    super(message);
    this.name = 'MappingError';
  }
}

/** A failed query inside a mapping: thrown while evaluating, caught by the statement runner. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** `this` referenced while the message is not structured (Bento's ErrNoContext) */
export class NoContextError extends QueryError {
  constructor(readonly field: string) {
    super(field ? `context was undefined, unable to reference \`${field}\`` : 'context was undefined');
  }
}

/** The limits that keep one tenant's mapping from stalling or flooding the gateway. */
export class LimitError extends QueryError {}

/** a failure a mapping may catch or reword; limit failures always reach the message unchanged */
export function isQueryFailure(err: unknown): err is QueryError {
  return err instanceof QueryError && !(err instanceof LimitError);
}
