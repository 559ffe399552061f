import { GraphQLError } from 'graphql';
import type { ApiRecord } from '../../../contracts/apis/api-definition';
import type { KeyRecord } from '../../../contracts/keys/actions';
import type { AccessDefinition, Policy } from '../../../contracts/keys/session';
import { analyticsResolvers } from './analytics-resolvers';
import { guarded, page } from './guard';

/** The root value of the schema: one resolver per root field of schema.ts. */
export const rootResolvers = {
  apis: guarded('apis', async (args: { page?: number; q?: string | null }, { caller, call }) => {
    const listed = await call('apis.list', { org_scope: caller.org_id, q: args.q || undefined, page: page(args.page) });
    return { items: listed.apis.map(apiOf), pages: listed.pages };
  }),
  api: guarded('apis', async (args: { id: string }, { caller, call }) =>
    apiOf(await call('apis.get', { id: args.id, org_scope: caller.org_id })),
  ),
  keys: guarded('keys', async (args: { apiId?: string | null; page?: number }, { caller, call }) => {
    // As GET /api/apis/{apiId}/keys: the API must be one of the organisation's.
    const apiId = args.apiId
      ? (await call('apis.get', { id: args.apiId, org_scope: caller.org_id })).api_definition.api_id
      : undefined;
    const listed = await call('keys.list', {
      api_id: apiId,
      org_scope: caller.org_id,
      page: page(args.page),
      hashes: true,
    });
    return { hashes: listed.keys, pages: listed.pages };
  }),
  key: guarded('keys', async (args: { hash: string }, { caller, call }) => {
    if (!/^[0-9a-f]{64}$/.test(args.hash))
      throw new GraphQLError('hash must be a key hash: 64 lower-case hex digits', {
        extensions: { code: 'BAD_REQUEST', status: 400 },
      });
    return keyOf(await call('keys.get', { key: args.hash, org_scope: caller.org_id }));
  }),
  policies: guarded('policies', async (args: { page?: number }, { caller, call }) => {
    const listed = await call('keys.policies.list', { org_scope: caller.org_id, page: page(args.page) });
    return { items: listed.policies.map(policyOf), pages: listed.pages };
  }),
  policy: guarded('policies', async (args: { id: string }, { caller, call }) =>
    policyOf(await call('keys.policies.get', { id: args.id, org_scope: caller.org_id })),
  ),
  ...analyticsResolvers,
};

function apiOf(record: ApiRecord) {
  const d = record.api_definition;
  return {
    id: d.id,
    apiId: d.api_id,
    name: d.name,
    orgId: d.org_id,
    active: d.active !== false,
    listenPath: d.proxy.listen_path,
    targetUrl: d.proxy.target_url,
    useKeyless: d.use_keyless === true,
    domain: d.domain ?? '',
    tags: strings(d.tags),
    definition: d,
  };
}

function keyOf(record: KeyRecord) {
  const s = record.data;
  return {
    hash: record.key_hash,
    alias: typeof s.alias === 'string' ? s.alias : null,
    orgId: s.org_id ?? null,
    isInactive: s.is_inactive === true,
    expires: s.expires ?? null,
    rate: s.rate ?? null,
    per: s.per ?? null,
    quotaMax: s.quota_max ?? null,
    quotaRemaining: s.quota_remaining ?? null,
    quotaRenews: s.quota_renews ?? null,
    quotaRenewalRate: s.quota_renewal_rate ?? null,
    tags: strings(s.tags),
    applyPolicies: strings(s.apply_policies),
    accessRights: accessRightsOf(s.access_rights),
    session: s,
  };
}

function policyOf(p: Policy) {
  return {
    id: p.id,
    name: p.name,
    orgId: p.org_id,
    active: p.active !== false,
    rate: p.rate ?? null,
    per: p.per ?? null,
    quotaMax: p.quota_max ?? null,
    quotaRenewalRate: p.quota_renewal_rate ?? null,
    tags: strings(p.tags),
    accessRights: accessRightsOf(p.access_rights),
    policy: p,
  };
}

function accessRightsOf(rights: Record<string, AccessDefinition> | undefined) {
  return Object.entries(rights ?? {}).map(([apiId, access]) => ({
    apiId,
    apiName: access.api_name ?? null,
    versions: strings(access.versions),
  }));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
