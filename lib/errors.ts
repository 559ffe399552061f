import { Errors } from 'moleculer';
import type { GwErrorCode } from '../contracts/errors';

/**
 * The one error type services throw. It is a Moleculer error, so it crosses NATS intact:
 * `code` is the HTTP status, `type` the `GW_ERR_*` code callers branch on, `data` the details.
 */
export class GwError extends Errors.MoleculerError {
  constructor(type: GwErrorCode, status: number, message: string, data?: unknown, retryable = false) {
    super(message, status, type, data);
    this.name = 'GwError';
    this.retryable = retryable;
  }
}

export function isGwError(err: unknown, type?: GwErrorCode): err is Errors.MoleculerError {
  if (!(err instanceof Error) || typeof (err as Errors.MoleculerError).type !== 'string') return false;
  return type === undefined || (err as Errors.MoleculerError).type === type;
}
