import type { Knex } from 'knex';
import type { ApiDefinition, ApiRecord, HookReference } from '../../../contracts/apis/api-definition';
import type {
  ApisCreateParams,
  ApisGetParams,
  ApisListParams,
  ApisListResult,
  ApisRemoveParams,
  ApisSnapshotResult,
  StoreRevisionResult,
  ApisSyncGraphqlSchemaParams,
  ApisUpdateParams,
} from '../../../contracts/apis/actions';
import type { ApisChangedEvent } from '../../../contracts/apis/events';
import { newPublicId, newRecordId } from '../../../lib/ids';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { isUniqueViolation } from '../../../lib/store/database';
import { ApisErrors } from '../errors';
import { type ApiStore, type StoredApi } from './api-store';
import { assertFitsColumns } from './column-limits';
import { buildDefinition, isReservedListenPath } from './definition-rules';
import { listenPathProblem } from './listen-path-rules';
import { patternProblem } from './pattern-rules';
import { versionProblem } from './version-rules';
import { tokenAuthProblem } from './token-auth-rules';
import { assertNoForeignOverlap, isLockConflict } from './route-ownership';
import { assertServable } from './serving-checks';
import { isSubgraphApi } from '../../../lib/graphql/federation/federated-definitions';
import { FederationOnSave } from './federation-on-save';
import { isMcpDefinition } from './migrations';
import { withoutVersion } from './version-cleanup';

/** How often a write MySQL failed to break a lock tie runs before the failure is answered. */
const LOCK_CONFLICT_TRIES = 5;

/**
 * Checks a definition must pass before it is stored, beyond its schema (plugin locations, hook
 * references); throws a coded 400. `hookReferences` is undefined when the caller keeps the
 * stored ones.
 */
export type DefinitionCheck = (definition: ApiDefinition, hookReferences: HookReference[] | undefined) => Promise<void>;

/**
 * The rules around API definitions: ids, organisation scope, listen-path uniqueness, and the
 * change event every gateway node listens to. Published only after the write has committed.
 */
export class ApiCatalogue {
  private readonly federation: FederationOnSave;

  constructor(
    private readonly store: ApiStore,
    private readonly pageSize: number,
    private readonly publish: (event: ApisChangedEvent) => void,
    private readonly now: () => number = Date.now,
    /** whether keys or policies grant access to an api_id; unknown = in use, so an id is never changed under a key */
    private readonly apiIdInUse: (apiId: string) => Promise<boolean> = async () => true,
    private readonly check: DefinitionCheck = async () => {},
  ) {
    this.federation = new FederationOnSave(store, now);
  }

  async list(params: ApisListParams): Promise<ApisListResult> {
    const { items, total } = await this.store.list(
      { orgScope: params.org_scope, nameContains: params.q },
      pageWindow(params.page ?? 1, this.pageSize),
    );
    return { apis: items.map(toRecord), pages: pageCount(total, this.pageSize) };
  }

  async get(params: ApisGetParams): Promise<ApiRecord> {
    const found = await this.store.findByAnyId(params.id, params.org_scope);
    if (!found) throw ApisErrors.notFound(params.id);
    return toRecord(found);
  }

  snapshot(): Promise<ApisSnapshotResult> {
    return this.store.all();
  }

  async currentRevision(): Promise<StoreRevisionResult> {
    return { revision: await this.store.revision() };
  }

  /**
   * `withOas`, for an API created in OAS form, gives the stored document for the ids the API
   * was given (OasCatalogue); classic APIs have none.
   */
  async create(params: ApisCreateParams, withOas?: OasForIds): Promise<ApiRecord> {
    const input = params.api_definition;
    const definition = await this.federation.prepared(
      buildDefinition(input, {
        id: newRecordId(),
        api_id: input.api_id ?? newPublicId(),
        org_id: this.orgFor(params.org_scope, input.org_id, input.org_id ?? ''),
      }),
    );
    await this.check(definition, params.hook_references);
    const now = this.now();
    const stored: StoredApi = {
      definition,
      hook_references: params.hook_references ?? [],
      created_at: now,
      updated_at: now,
      ...oasOf(withOas, definition),
    };
    const [revision] = await this.write(definition, undefined, (trx) => this.store.insert(stored, trx));
    this.publish({ action: 'created', definition, revision });
    return toRecord(stored);
  }

  /** `withOas` as in `create`: an OAS API is only updated in OAS form, a classic one only in classic form. */
  async update(params: ApisUpdateParams, withOas?: OasForIds): Promise<ApiRecord> {
    const existing = await this.store.findByAnyId(params.id, params.org_scope);
    if (!existing) throw ApisErrors.notFound(params.id);
    if (existing.oas && !withOas) throw ApisErrors.isOas(existing.definition.api_id);
    if (!existing.oas && withOas) throw ApisErrors.notOas(existing.definition.api_id);
    const input = params.api_definition;
    const current = existing.definition;
    const definition = await this.federation.prepared(
      buildDefinition(input, {
        id: current.id,
        api_id: input.api_id ?? current.api_id,
        org_id: this.orgFor(params.org_scope, input.org_id, input.org_id ?? current.org_id),
      }),
    );
    if (definition.api_id !== current.api_id && (await this.apiIdInUse(current.api_id)))
      throw ApisErrors.idInUse(current.api_id, definition.api_id);
    await this.check(definition, params.hook_references);
    const dependents = await this.federation.recomposedDependents(current, definition);
    const stored: StoredApi = {
      definition,
      hook_references: params.hook_references ?? existing.hook_references,
      created_at: existing.created_at,
      updated_at: this.now(),
      ...oasOf(withOas, definition),
    };
    const [revision, ...dependentRevisions] = await this.write(
      definition,
      current,
      (trx) => this.store.update(current.id, stored, trx),
      dependents,
    );
    this.publish({ action: 'updated', definition, revision });
    dependents.forEach((dependent, index) =>
      this.publish({ action: 'updated', definition: dependent.definition, revision: dependentRevisions[index] }),
    );
    return toRecord(stored);
  }

  async remove(params: ApisRemoveParams, wholeOrganisation = false): Promise<{ id: string; api_id: string }> {
    const existing = await this.store.findByAnyId(params.id, params.org_scope);
    if (!existing) throw ApisErrors.notFound(params.id);
    const { id, api_id } = existing.definition;
    if (!wholeOrganisation && isSubgraphApi(existing.definition)) {
      const users = (await this.federation.supergraphsUsing(existing.definition)).map((api) => api.definition.name);
      if (users.length > 0) throw ApisErrors.subgraphInUse(existing.definition.name, users);
    }
    if (!wholeOrganisation && !isMcpDefinition(existing.definition)) {
      const users = await this.mcpApisServing(existing.definition);
      if (users.length > 0) throw ApisErrors.restSourceInUse(users);
    }
    // a whole organisation goes: its bases are deleted too
    const listing = wholeOrganisation ? [] : await this.basesListing(existing.definition);
    const { revision, bases } = await this.store.transaction(async (trx) => {
      if ((await this.store.delete(id, trx)) === 0) throw ApisErrors.notFound(params.id);
      const deleted = await this.store.bumpRevision(trx);
      const updated: Array<{ definition: ApiDefinition; revision: number }> = [];
      for (const listed of listing) {
        // read again in the transaction: a base saved since it was listed keeps that save
        const current = await this.store.findByAnyId(listed.definition.id, undefined, trx);
        const base = current && withoutVersion(current, api_id);
        if (!base) continue;
        await this.store.update(base.definition.id, { ...base, updated_at: this.now() }, trx);
        updated.push({ definition: base.definition, revision: await this.store.bumpRevision(trx) });
      }
      return { revision: deleted, bases: updated };
    });
    this.publish({ action: 'deleted', id, api_id, revision });
    for (const base of bases) this.publish({ action: 'updated', ...base });
    return { id, api_id };
  }

  /** The APIs of the API's organisation that list it as one of their versions. */
  private async basesListing(definition: ApiDefinition): Promise<StoredApi[]> {
    const candidates = await this.store.mentioning(definition.api_id, definition.org_id);
    return candidates.filter((item) => withoutVersion(item, definition.api_id) !== undefined);
  }

  /** The MCP APIs of the API's organisation that offer it as MCP tools (`gw://<api_id>/mcp`). */
  private async mcpApisServing(definition: ApiDefinition): Promise<string[]> {
    const { items } = await this.store.list({ orgScope: definition.org_id, mcp: true }, { offset: 0 });
    return items
      .filter((item) => item.definition.mcp?.rest_source === definition.api_id)
      .map((item) => item.definition.api_id)
      .sort();
  }

  /**
   * Replaces a proxy-only GraphQL API's schema with its upstream's, and records when
   * (`graphql.last_schema_update`). Not available for combined-graph APIs.
   */
  async syncGraphqlSchema(
    params: ApisSyncGraphqlSchemaParams,
    introspect: (url: string, headers: Record<string, string>) => Promise<string>,
  ): Promise<ApiRecord> {
    const existing = await this.store.findByAnyId(params.id, params.org_scope);
    if (!existing) throw ApisErrors.notFound(params.id);
    const definition = existing.definition;
    const graphql = (definition.graphql ?? {}) as Record<string, unknown>;
    const mode = graphql.execution_mode ?? (graphql.enabled ? 'proxyOnly' : undefined);
    if (mode === 'executionEngine')
      throw ApisErrors.invalid(
        "Schema synchronisation is not available for combined-graph APIs (execution_mode executionEngine): their schema is their own, not an upstream's",
      );
    if (mode !== 'proxyOnly')
      throw ApisErrors.invalid('Schema synchronisation is only available for proxy-only GraphQL APIs');
    const proxy = (graphql.proxy ?? {}) as Record<string, unknown>;
    const headers = params.introspection_headers ?? ((proxy.auth_headers ?? {}) as Record<string, string>);
    const schema = await introspect(definition.proxy.target_url, headers);
    const nextProxy =
      params.persist_headers && params.introspection_headers
        ? { ...proxy, auth_headers: params.introspection_headers }
        : proxy;
    const next = {
      ...definition,
      graphql: { ...graphql, schema, proxy: nextProxy, last_schema_update: new Date(this.now()).toISOString() },
    };
    return this.update({ id: definition.id, api_definition: next });
  }

  /** Every API of a deleted organisation; each is announced as deleted, so gateways stop serving it. */
  async removeOrganisation(orgId: string): Promise<number> {
    const { items } = await this.store.list({ orgScope: orgId }, { offset: 0 });
    for (const { definition } of items) await this.remove({ id: definition.id, org_scope: orgId }, true);
    return items.length;
  }

  /** A dashboard caller may only write into their own organisation. */
  private orgFor(scope: string | undefined, requested: string | undefined, fallback: string): string {
    if (scope === undefined) return fallback;
    if (requested !== undefined && requested !== '' && requested !== scope) throw ApisErrors.wrongOrg(requested);
    return scope;
  }

  /**
   * Runs a write after the uniqueness checks, in one transaction with its revision (returned);
   * a lost race still gets a clear error.
   */
  private async write(
    definition: ApiDefinition,
    previous: ApiDefinition | undefined,
    save: (trx: Knex) => Promise<void>,
    dependents: StoredApi[] = [],
  ): Promise<number[]> {
    assertServable(definition);
    assertFitsColumns(definition);
    if (isReservedListenPath(definition.proxy.listen_path)) {
      throw ApisErrors.invalid(
        `Listen path ${definition.proxy.listen_path} is reserved for the gateway management API (/gw)`,
      );
    }
    const problem =
      listenPathProblem(definition.proxy.listen_path) ??
      versionProblem(definition) ??
      patternProblem(definition) ??
      tokenAuthProblem(definition);
    if (problem) throw ApisErrors.invalid(problem);
    const attempt = () =>
      this.store.transaction(async (trx) => {
        await this.assertUnique(definition, previous, trx);
        await save(trx);
        const revisions = [await this.store.bumpRevision(trx)];
        for (const dependent of dependents) {
          await this.store.update(dependent.definition.id, dependent, trx);
          revisions.push(await this.store.bumpRevision(trx));
        }
        return revisions;
      });
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (err) {
        // MySQL failed this transaction to break a lock tie with a concurrent write: the whole
        // transaction was rolled back, so it runs again and its checks see the other write.
        if (isLockConflict(err) && tries < LOCK_CONFLICT_TRIES) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * tries));
          continue;
        }
        if (!isUniqueViolation(err) && !isLockConflict(err)) throw err;
        await this.assertUnique(definition, previous, undefined);
        throw err;
      }
    }
  }

  private async assertUnique(
    definition: ApiDefinition,
    previous: ApiDefinition | undefined,
    trx: Knex | undefined,
  ): Promise<void> {
    // First, so a path another organisation holds is refused without naming its API.
    await assertNoForeignOverlap(this.store, definition, previous?.id, trx);
    if (definition.api_id !== previous?.api_id) {
      const sameId = await this.store.findByApiId(definition.api_id, trx);
      if (sameId) throw ApisErrors.idTaken(definition.api_id);
    }
    const holder = await this.store.findListenPathHolder(definition, previous?.id, trx);
    if (holder) throw ApisErrors.listenPathTaken(definition.proxy.listen_path, holder);
  }
}

/** Gives the OAS document to store for the ids an API was given. */
export type OasForIds = (ids: { id: string; api_id: string; org_id: string }) => Record<string, unknown>;

function oasOf(withOas: OasForIds | undefined, definition: ApiDefinition): Pick<StoredApi, 'oas'> {
  return withOas ? { oas: withOas({ id: definition.id, api_id: definition.api_id, org_id: definition.org_id }) } : {};
}

function toRecord(api: StoredApi): ApiRecord {
  return {
    api_model: {},
    api_definition: api.definition,
    hook_references: api.hook_references,
    is_site: false,
    sort_by: 0,
  };
}
