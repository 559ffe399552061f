import type { Problem } from './problem';

/** The dashboard and admin response envelope (docs/apis.md#three-management-surfaces). */
export interface Envelope {
  Status: 'OK' | 'Error';
  Message: string;
  Meta: unknown;
  Errors?: string[];
  [extra: string]: unknown;
}

export function ok(message: string, meta: unknown = null, extra: Record<string, unknown> = {}): Envelope {
  return { Status: 'OK', Message: message, Meta: meta, ...extra };
}

export function envelopeError(problem: Problem): Envelope {
  const body: Envelope = { Status: 'Error', Message: problem.message, Meta: null };
  if (problem.errors) body.Errors = problem.errors;
  return body;
}
