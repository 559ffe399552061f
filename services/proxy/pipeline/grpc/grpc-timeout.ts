/** Milliseconds per unit of a `grpc-timeout` value (gRPC over HTTP/2: Hour, Minute, Second, milli, micro, nano). */
const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** At most eight digits, then one unit. */
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;

/**
 * A `grpc-timeout` header (`100m`, `5S`) in milliseconds; undefined when it is absent or not of
 * the protocol's form (the call then has no deadline, as a gRPC server would treat it).
 */
export function parseGrpcTimeout(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TIMEOUT.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2]];
}

/**
 * What is left of the call's deadline (ms), counted from when the gateway received it
 * (`startedAt`, performance.now()); undefined when the call has none.
 */
export function grpcTimeLeft(value: string | string[] | undefined, startedAt: number, now: number): number | undefined {
  const timeout = parseGrpcTimeout(value);
  return timeout === undefined ? undefined : timeout - (now - startedAt);
}
