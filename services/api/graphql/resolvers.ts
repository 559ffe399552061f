import { GraphQLError } from 'graphql';
import type { ApiRecord } from '../../../contracts/apis/api-definition';
import type { KeyRecord } from '../../../contracts/keys/actions';
import type { AccessDefinition, Policy } from '../../../contracts/keys/session';
import type { Caller } from '../../../contracts/users/actions';
import type { Call } from '../../../lib/bus/call';
import { toProblem } from '../../../lib/http/problem';
import { requirePermission } from '../routes/dashboard';

/** What every resolver gets: who asks, and the bus. */
export interface GraphqlContext {
  caller: Caller;
  call: Call;
  /** reports an error that is a bug (shown to the client as an internal error) */
  onUnexpected(err: unknown): void;
}

type Permission = 'apis' | 'keys' | 'policies' | 'analytics';

const CODES: Record<number, string> = { 400: 'BAD_REQUEST', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT', 503: 'SERVICE_UNAVAILABLE' };

/**
 * A root field's resolver: the caller must hold `permission` at read level, as on the REST
 * route, else the field is null with a FORBIDDEN error and the other fields still resolve.
 * Errors of the actions keep their message and become GraphQL errors with a code.
 */
function guarded<A, R>(permission: Permission, resolve: (args: A, ctx: GraphqlContext) => Promise<R>) {
  return async (args: A, ctx: GraphqlContext): Promise<R> => {
    try {
      requirePermission(ctx.caller, { name: permission, level: 'read' });
      return await resolve(args, ctx);
    } catch (err) {
      if (err instanceof GraphQLError) throw err;
      const problem = toProblem(err, ctx.onUnexpected);
      const code = CODES[problem.status] ?? (problem.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
      // A catalogued service error also names itself, as err.code does on the bus.
      const type = (err as { type?: unknown }).type;
      const extensions = typeof type === 'string' && type.startsWith('GW_ERR_') ? { code, status: problem.status, type } : { code, status: problem.status };
      throw new GraphQLError(problem.message, { extensions });
    }
  };
}

function page(value: number | undefined): number {
  const n = value ?? 1;
  if (n < 1) throw new GraphQLError(`page must be 1 or more, got ${n}`, { extensions: { code: 'BAD_REQUEST', status: 400 } });
  return n;
}

/** The root value of the schema: one resolver per root field of schema.ts. */
export const rootResolvers = {
  apis: guarded('apis', async (args: { page?: number; q?: string | null }, { caller, call }) => {
    const listed = await call('apis.list', { org_scope: caller.org_id, q: args.q || undefined, page: page(args.page) });
    return { items: listed.apis.map(apiOf), pages: listed.pages };
  }),
  api: guarded('apis', async (args: { id: string }, { caller, call }) => apiOf(await call('apis.get', { id: args.id, org_scope: caller.org_id }))),
  keys: guarded('keys', async (args: { apiId?: string | null; page?: number }, { caller, call }) => {
    // As GET /api/apis/{apiId}/keys: the API must be one of the organisation's.
    const apiId = args.apiId ? (await call('apis.get', { id: args.apiId, org_scope: caller.org_id })).api_definition.api_id : undefined;
    const listed = await call('keys.list', { api_id: apiId, org_scope: caller.org_id, page: page(args.page), hashes: true });
    return { hashes: listed.keys, pages: listed.pages };
  }),
  key: guarded('keys', async (args: { hash: string }, { caller, call }) => {
    if (!/^[0-9a-f]{64}$/.test(args.hash)) throw new GraphQLError('hash must be a key hash: 64 lower-case hex digits', { extensions: { code: 'BAD_REQUEST', status: 400 } });
    return keyOf(await call('keys.get', { key: args.hash, org_scope: caller.org_id }));
  }),
  policies: guarded('policies', async (args: { page?: number }, { caller, call }) => {
    const listed = await call('keys.policies.list', { org_scope: caller.org_id, page: page(args.page) });
    return { items: listed.policies.map(policyOf), pages: listed.pages };
  }),
  policy: guarded('policies', async (args: { id: string }, { caller, call }) => policyOf(await call('keys.policies.get', { id: args.id, org_scope: caller.org_id }))),
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
  return Object.entries(rights ?? {}).map(([apiId, access]) => ({ apiId, apiName: access.api_name ?? null, versions: strings(access.versions) }));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
