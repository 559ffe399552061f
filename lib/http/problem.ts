import { Errors } from 'moleculer';
import { redactStoreError } from '../store/store-errors';
import { dataTooLongProblem } from './store-errors';

/** What an HTTP surface answers when a call fails; each surface renders it in its own shape. */
export interface Problem {
  status: number;
  message: string;
  /** one entry per failed schema check */
  errors?: string[];
}

/** An error raised at the HTTP edge itself (malformed body, missing credential, …). */
export class HttpProblem extends Error implements Problem {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: string[],
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

const UNREACHABLE = new Set(['SERVICE_NOT_AVAILABLE', 'SERVICE_NOT_FOUND', 'REQUEST_TIMEOUT', 'REQUEST_SKIPPED']);

/**
 * Translates anything a route handler can throw into a Problem. Errors from services arrive as
 * Moleculer errors (also across NATS): their `code` is the HTTP status. Anything else is a bug
 * and is reported by `onUnexpected` (a store error without the values of its query), never
 * shown to the client.
 */
export function toProblem(err: unknown, onUnexpected: (err: unknown) => void): Problem {
  if (err instanceof HttpProblem) return err;
  if (err instanceof Errors.ValidationError || (err as Errors.MoleculerError)?.type === 'VALIDATION_ERROR') {
    const checks = ((err as Errors.MoleculerError).data ?? []) as Array<{ message?: string }>;
    const errors = checks.map((check) => check.message ?? String(check));
    return { status: 400, message: `Request validation failed: ${errors.join(' ')}`, errors };
  }
  const moleculerError = err as Errors.MoleculerError;
  if (UNREACHABLE.has(moleculerError?.type)) {
    return { status: 503, message: `A service this request needs is not reachable (${moleculerError.message})` };
  }
  if (typeof moleculerError?.code === 'number' && moleculerError.code >= 400 && moleculerError.code < 500) {
    return withErrors({ status: moleculerError.code, message: moleculerError.message }, moleculerError.data);
  }
  // A catalogued error (`GW_ERR_*`) keeps its status, 5xx included (a failed upstream is 502).
  if (isCatalogued(moleculerError) && moleculerError.code >= 500 && moleculerError.code < 600) {
    return withErrors({ status: moleculerError.code, message: moleculerError.message }, moleculerError.data);
  }
  const tooLong = dataTooLongProblem(err);
  if (tooLong) return tooLong;
  onUnexpected(redactStoreError(err));
  return { status: 500, message: 'Internal server error' };
}

function isCatalogued(err: Errors.MoleculerError | undefined): err is Errors.MoleculerError {
  return typeof err?.type === 'string' && err.type.startsWith('GW_ERR_') && typeof err.code === 'number';
}

/** A service error may list one problem per failed check in `data.errors` (schema checks). */
function withErrors(problem: Problem, data: unknown): Problem {
  const errors = (data as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(errors) && errors.every((e) => typeof e === 'string')) problem.errors = errors;
  return problem;
}
