/** Why a request to an upstream failed, by code (the upstream step answers 504 to the timeouts, 502 to the rest). */
export type UpstreamErrorCode =
  | 'UPSTREAM_HEADERS_TIMEOUT'
  | 'UPSTREAM_BODY_TIMEOUT'
  | 'UPSTREAM_CLOSED'
  | 'UPSTREAM_INVALID_RESPONSE'
  | 'UPSTREAM_INVALID_REQUEST'
  | 'UPSTREAM_ABORTED'
  | 'UPSTREAM_POOL_CLOSED';

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly code: UpstreamErrorCode,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
