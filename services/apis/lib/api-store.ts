import type { Knex } from 'knex';
import { inOrg } from '../../../lib/store/org-scope';
import type { ApiDefinition, HookReference } from '../../../contracts/apis/api-definition';
import { parseJson } from '../../../lib/store/migrate';
import type { PageWindow } from '../../../lib/pagination';
import { bumpRevision, currentRevision } from '../../../lib/store/revision';
import { normaliseDomain, normaliseListenPath } from './definition-rules';
import { enclosingPaths } from './route-ownership';
import { APIS_REVISION_TABLE, isMcpDefinition, isStreamsDocument } from './migrations';

export interface StoredApi {
  definition: ApiDefinition;
  hook_references: HookReference[];
  /** the OpenAPI document of an API created in OAS form; undefined for classic APIs */
  oas?: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

/** Who listens where (normalised listen path and domain). */
export interface RouteClaim {
  org_id: string;
  listen_path: string;
  domain: string;
}

interface ApiRow {
  id: string;
  api_id: string;
  org_id: string;
  name: string;
  listen_path: string;
  domain: string;
  definition: string;
  hook_references: string;
  oas: string | null;
  is_streams: boolean | number;
  is_mcp: boolean | number;
  created_at: number | string;
  updated_at: number | string;
}

/** The `apis` table. Queries only; the rules live in `api-catalogue.ts`. */
export class ApiStore {
  constructor(private readonly db: Knex) {}

  async list(
    filter: {
      orgScope?: string;
      nameContains?: string;
      oasOnly?: boolean;
      streamsOnly?: boolean;
      /** true: MCP APIs only; false: no MCP API; absent: both */
      mcp?: boolean;
    },
    window: PageWindow,
  ): Promise<{ items: StoredApi[]; total: number }> {
    const base = this.db<ApiRow>('apis')
      .modify(inOrg(filter.orgScope))
      .modify((query) => {
        if (filter.oasOnly) query.whereNotNull('oas');
        if (filter.streamsOnly) query.where('is_streams', true);
        if (filter.mcp !== undefined) query.where('is_mcp', filter.mcp);
        if (filter.nameContains)
          query.whereRaw('lower(name) like ? escape ?', [`%${escapeLike(filter.nameContains.toLowerCase())}%`, '\\']);
      });
    const [{ total }] = await base.clone().count({ total: '*' });
    const page = base
      .clone()
      .select('*')
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
      .offset(window.offset);
    if (window.limit !== undefined) page.limit(window.limit);
    const rows = await page;
    return { items: rows.map(fromRow), total: Number(total) };
  }

  /**
   * The organisation's APIs whose stored definition names `apiId` as a JSON string anywhere (as
   * a version does): a narrow first pass in SQL, for the caller to check the field it means.
   */
  async mentioning(apiId: string, orgScope: string): Promise<StoredApi[]> {
    const rows = await this.db<ApiRow>('apis')
      .modify(inOrg(orgScope))
      .whereRaw('definition like ? escape ?', [`%${escapeLike(JSON.stringify(apiId))}%`, '\\'])
      .select('*');
    return rows.map(fromRow);
  }

  /** Every definition of every organisation (for gateway nodes), with the revision they reflect. */
  async all(): Promise<{ revision: number; apis: ApiDefinition[] }> {
    // One transaction: MySQL's consistent read (and SQLite's single connection) keep the
    // definitions and the revision from the same moment.
    return this.db.transaction(async (trx) => {
      const revision = await currentRevision(trx, APIS_REVISION_TABLE);
      const rows = await trx<ApiRow>('apis').select('definition');
      return { revision, apis: rows.map((row) => parseJson<ApiDefinition>(row.definition, {} as ApiDefinition)) };
    });
  }

  /** The latest revision: bumped in the transaction of every write. */
  revision(): Promise<number> {
    return currentRevision(this.db, APIS_REVISION_TABLE);
  }

  /** Numbers a change inside its transaction. */
  bumpRevision(trx: Knex): Promise<number> {
    return bumpRevision(trx, APIS_REVISION_TABLE);
  }

  /** By internal id or by public api_id. */
  async findByAnyId(id: string, orgScope?: string, trx: Knex = this.db): Promise<StoredApi | undefined> {
    const row = await trx<ApiRow>('apis')
      .where((q) => void q.where('id', id).orWhere('api_id', id))
      .modify(inOrg(orgScope))
      .first();
    return row ? fromRow(row) : undefined;
  }

  /** The APIs of one organisation whose internal id, api_id or name is `ref` (names are not unique). */
  async findInOrg(ref: string, orgId: string, trx: Knex = this.db): Promise<ApiDefinition[]> {
    const rows = await trx<ApiRow>('apis')
      .where((q) => void q.where('id', ref).orWhere('api_id', ref).orWhere('name', ref))
      .andWhere('org_id', orgId);
    return rows.map((row) => fromRow(row).definition);
  }

  async findByApiId(apiId: string, trx: Knex = this.db): Promise<StoredApi | undefined> {
    const row = await trx<ApiRow>('apis').where('api_id', apiId).first();
    return row ? fromRow(row) : undefined;
  }

  /** The API (other than `exceptId`) that already listens on this path and domain, if any. */
  async findListenPathHolder(
    definition: ApiDefinition,
    exceptId: string | undefined,
    trx: Knex = this.db,
  ): Promise<ApiDefinition | undefined> {
    const row = await trx<ApiRow>('apis')
      .where({
        listen_path: normaliseListenPath(definition.proxy.listen_path),
        domain: normaliseDomain(definition.domain),
      })
      .modify((q) => {
        if (exceptId !== undefined) q.whereNot('id', exceptId);
      })
      .first();
    return row ? fromRow(row).definition : undefined;
  }

  /**
   * The APIs (other than `exceptId`) listening on a path that encloses `listenPath` or lies below
   * it, on any domain. On MySQL the rows and the gaps between them are locked until the
   * transaction ends, so two concurrent writes can not both pass the ownership check.
   */
  async findRouteNeighbours(
    listenPath: string,
    exceptId: string | undefined,
    trx: Knex = this.db,
  ): Promise<RouteClaim[]> {
    const below = `${escapeLike(listenPath === '/' ? '' : listenPath)}/%`;
    const query = trx<ApiRow>('apis')
      .select('org_id', 'listen_path', 'domain')
      .where(
        (q) =>
          void q
            .whereIn('listen_path', enclosingPaths(listenPath))
            .orWhereRaw('listen_path like ? escape ?', [below, '\\']),
      )
      .modify((q) => {
        if (exceptId !== undefined) q.whereNot('id', exceptId);
      });
    if (!isSqlite(trx)) query.forUpdate();
    return (await query).map((row: Pick<ApiRow, 'org_id' | 'listen_path' | 'domain'>) => ({
      org_id: row.org_id,
      listen_path: row.listen_path,
      domain: row.domain,
    }));
  }

  async insert(api: StoredApi, trx: Knex = this.db): Promise<void> {
    await trx('apis').insert(toRow(api));
  }

  async update(id: string, api: StoredApi, trx: Knex = this.db): Promise<void> {
    await trx('apis').where('id', id).update(toRow(api));
  }

  async delete(id: string, trx: Knex = this.db): Promise<number> {
    return trx('apis').where('id', id).delete();
  }

  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

function toRow(api: StoredApi): ApiRow {
  const { definition } = api;
  return {
    id: definition.id,
    api_id: definition.api_id,
    org_id: definition.org_id,
    name: definition.name,
    listen_path: normaliseListenPath(definition.proxy.listen_path),
    domain: normaliseDomain(definition.domain),
    definition: JSON.stringify(definition),
    hook_references: JSON.stringify(api.hook_references),
    oas: api.oas === undefined ? null : JSON.stringify(api.oas),
    is_streams: isStreamsDocument(api.oas),
    is_mcp: isMcpDefinition(definition),
    created_at: api.created_at,
    updated_at: api.updated_at,
  };
}

function fromRow(row: ApiRow): StoredApi {
  return {
    definition: parseJson<ApiDefinition>(row.definition, {} as ApiDefinition),
    hook_references: parseJson<HookReference[]>(row.hook_references, []),
    ...(row.oas ? { oas: parseJson<Record<string, unknown>>(row.oas, {}) } : {}),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function isSqlite(db: Knex): boolean {
  return String(db.client.config.client).includes('sqlite');
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
