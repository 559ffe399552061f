import type { Knex } from 'knex';
import { inOrg } from '../../../lib/store/org-scope';
import type { Policy } from '../../../contracts/keys/session';
import { isUniqueViolation } from '../../../lib/store/database';
import { parseJson } from '../../../lib/store/migrate';
import { paginate } from '../../../lib/store/paginate';
import { newRecordId } from '../../../lib/ids';
import type { PoliciesChangedEvent } from '../../../contracts/keys/events';
import { bumpRevision } from '../../../lib/store/revision';
import { KeysErrors } from '../errors';
import { KEYS_REVISION_TABLE } from './migrations';
import { assertPolicyApisExist, type FindApi } from './policy-checks';

interface PolicyRow {
  id: string;
  org_id: string;
  document: string;
  created_at: number | string;
  updated_at: number | string;
}

/**
 * Policies: the `policies` table, the defaults of the policy object, organisation scope, and
 * the `policies.changed` broadcast after every write.
 */
export class PolicyRegistry {
  constructor(
    private readonly db: Knex,
    private readonly pageSize: number,
    private readonly publish: (event: PoliciesChangedEvent) => void,
    private readonly findApi: FindApi,
    private readonly now: () => number = Date.now,
  ) {}

  async get(id: string, orgScope?: string): Promise<Policy> {
    const row = await this.db<PolicyRow>('policies').where('id', id).modify(inOrg(orgScope)).first();
    if (!row) throw KeysErrors.policyNotFound(id);
    return parseJson<Policy>(row.document, {} as Policy);
  }

  /** The policies with these ids, in that order; names the first that does not exist. */
  async getMany(ids: string[]): Promise<Policy[]> {
    if (ids.length === 0) return [];
    const rows = await this.db<PolicyRow>('policies').whereIn('id', ids);
    const byId = new Map(rows.map((row) => [row.id, parseJson<Policy>(row.document, {} as Policy)]));
    return ids.map((id) => {
      const policy = byId.get(id);
      if (!policy) throw KeysErrors.unknownPolicy(id);
      return policy;
    });
  }

  async list(orgScope: string | undefined, page: number): Promise<{ policies: Policy[]; pages: number }> {
    const base = this.db('policies').modify(inOrg(orgScope));
    const { rows, pages } = await paginate<PolicyRow>(base, page, this.pageSize);
    return { policies: rows.map((row) => parseJson<Policy>(row.document, {} as Policy)), pages };
  }

  async create(input: Partial<Policy>, orgScope: string | undefined): Promise<Policy> {
    const policy = withDefaults(input, input.id ?? newRecordId(), ownOrg(orgScope, input.org_id, ''));
    await assertPolicyApisExist(policy, this.findApi);
    const now = this.now();
    let revision: number;
    try {
      revision = await this.db.transaction(async (trx) => {
        await trx('policies').insert({
          id: policy.id,
          org_id: policy.org_id,
          document: JSON.stringify(policy),
          created_at: now,
          updated_at: now,
        });
        return bumpRevision(trx, KEYS_REVISION_TABLE);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw KeysErrors.policyTaken(policy.id);
      throw err;
    }
    this.publish({ action: 'created', policy_id: policy.id, revision });
    return policy;
  }

  async update(id: string, input: Partial<Policy>, orgScope: string | undefined): Promise<Policy> {
    const current = await this.get(id, orgScope);
    const policy = withDefaults(input, id, ownOrg(orgScope, input.org_id, current.org_id));
    await assertPolicyApisExist(policy, this.findApi);
    const revision = await this.db.transaction(async (trx) => {
      await trx('policies')
        .where('id', id)
        .update({ org_id: policy.org_id, document: JSON.stringify(policy), updated_at: this.now() });
      return bumpRevision(trx, KEYS_REVISION_TABLE);
    });
    this.publish({ action: 'updated', policy_id: id, revision });
    return policy;
  }

  /** Policies whose access rights name this API (a text match narrows, the parsed rights decide). */
  async countForApi(apiId: string): Promise<number> {
    const needle = `%${JSON.stringify(apiId).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.db<PolicyRow>('policies')
      .whereRaw('document like ? escape ?', [needle, '\\'])
      .select('document');
    return rows.filter((row) => Object.hasOwn(parseJson<Policy>(row.document, {} as Policy).access_rights ?? {}, apiId))
      .length;
  }

  async removeOrganisation(orgId: string): Promise<number> {
    const ids = (await this.db<PolicyRow>('policies').where('org_id', orgId).select('id')).map((row) => row.id);
    for (const id of ids) await this.remove(id, orgId);
    return ids.length;
  }

  async remove(id: string, orgScope: string | undefined): Promise<void> {
    await this.get(id, orgScope);
    const revision = await this.db.transaction(async (trx) => {
      await trx('policies').where('id', id).delete();
      return bumpRevision(trx, KEYS_REVISION_TABLE);
    });
    this.publish({ action: 'deleted', policy_id: id, revision });
  }
}

/** A dashboard caller's policies are in their organisation. */
function ownOrg(scope: string | undefined, requested: string | undefined, fallback: string): string {
  if (scope === undefined) return requested ?? fallback;
  if (requested !== undefined && requested !== '' && requested !== scope) throw KeysErrors.wrongOrg(requested);
  return scope;
}

/** Throttling is off (-1) and quota and query depth unlimited (-1) unless the policy says otherwise. */
function withDefaults(input: Partial<Policy>, id: string, orgId: string): Policy {
  return {
    name: '',
    rate: 0,
    per: 0,
    quota_max: -1,
    quota_renewal_rate: -1,
    throttle_interval: -1,
    throttle_retry_limit: -1,
    max_query_depth: -1,
    access_rights: {},
    active: true,
    tags: [],
    ...input,
    id,
    org_id: orgId,
  };
}
