import type { Knex } from 'knex';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { ApisErrors } from '../errors';
import type { ApiStore, RouteClaim } from './api-store';
import { normaliseDomain, normaliseListenPath } from './definition-rules';

/**
 * No request may be claimable by the APIs of two organisations. An API claims every request on
 * its domain (every host when it has none) whose path is its listen path or lies below it. The
 * gateway routes to the longest listen path, then prefers a host-bound API; so when two claims
 * overlap, one API receives requests (and credentials) meant for the other. Overlap is refused
 * whichever API came first, so an organisation can not pre-register a path below another's
 * future one either. Within one organisation nesting is how APIs are composed, and allowed.
 * An API without an organisation (written through /gw without org_id) is an owner of its own.
 */
export async function assertNoForeignOverlap(
  store: ApiStore,
  definition: ApiDefinition,
  exceptId: string | undefined,
  trx: Knex | undefined,
): Promise<void> {
  const mine: RouteClaim = {
    org_id: definition.org_id ?? '',
    listen_path: normaliseListenPath(definition.proxy.listen_path),
    domain: normaliseDomain(definition.domain),
  };
  const neighbours = await store.findRouteNeighbours(mine.listen_path, exceptId, trx);
  if (neighbours.some((other) => other.org_id !== mine.org_id && claimsOverlap(mine, other))) {
    throw ApisErrors.listenPathOverlaps(definition.proxy.listen_path);
  }
}

/** Both claims are normalised (`normaliseListenPath`, `normaliseDomain`). */
export function claimsOverlap(a: Omit<RouteClaim, 'org_id'>, b: Omit<RouteClaim, 'org_id'>): boolean {
  const hosts = a.domain === b.domain || a.domain === '' || b.domain === '';
  return hosts && (isWithin(a.listen_path, b.listen_path) || isWithin(b.listen_path, a.listen_path));
}

/** Whole segments: `/a/b` is within `/a`, `/ab` is not. */
function isWithin(inner: string, outer: string): boolean {
  return outer === '/' || inner === outer || inner.startsWith(`${outer}/`);
}

/** Every listen path that `path` lies within: `/a/b` → `/`, `/a`, `/a/b`. */
export function enclosingPaths(path: string): string[] {
  const paths = ['/'];
  let end = path.indexOf('/', 1);
  while (end !== -1) {
    paths.push(path.slice(0, end));
    end = path.indexOf('/', end + 1);
  }
  if (path !== '/') paths.push(path);
  return paths;
}

/**
 * MySQL breaks a tie between two writes whose ownership checks locked each other's ranges by
 * failing one; re-running the check outside the transaction then explains the refusal.
 */
export function isLockConflict(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
