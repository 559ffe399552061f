import type { Knex } from 'knex';

/**
 * A query modifier that limits rows to one organisation when a scope is given (dashboard
 * callers); without one every organisation is visible (the admin and gateway APIs).
 */
export function inOrg(orgScope: string | undefined): (query: Knex.QueryBuilder) => void {
  return (query) => {
    if (orgScope !== undefined) query.where('org_id', orgScope);
  };
}
