import type {
  ApisCreateMcpParams,
  ApisGetMcpParams,
  ApisListOasResult,
  ApisListParams,
  ApisMcpWriteResult,
  ApisRemoveParams,
  ApisRemoveResult,
  ApisUpdateMcpParams,
  OasApiDocument,
} from '../../../contracts/apis/actions';
import { newPublicId } from '../../../lib/ids';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { ApisErrors } from '../errors';
import type { ApiCatalogue } from './api-catalogue';
import type { ApiStore, StoredApi } from './api-store';
import { expandMcpDocument } from './mcp-expand';
import { restToolsOf } from './mcp-rest-view';
import { isMcpDefinition } from './migrations';
import { dropIds } from './oas-catalogue';
import { compileOasDefinition, parseDocumentText, withStoredIds, type ClassicInput, type CompileOptions } from './oas';

/**
 * MCP APIs (`/mcps`): OAS definitions compiled with their `mcp` block, stored and served as any
 * other API but listed, read and written apart from the OAS APIs, as the reference keeps them.
 */
export class McpCatalogue {
  constructor(
    private readonly catalogue: ApiCatalogue,
    private readonly store: ApiStore,
    private readonly pageSize: number,
    private readonly options: CompileOptions = {},
  ) {}

  async create(params: ApisCreateMcpParams): Promise<ApisMcpWriteResult> {
    const raw = parseDocumentText(params.document_text);
    if (params.generate_ids) dropIds(raw);
    const { document, classic, hookReferences } = compileOasDefinition(raw, { ...this.options, mcp: true });
    const org = params.org_scope ?? classic.org_id ?? '';
    const source = await this.restSource(classic, org, params.org_scope !== undefined);
    withRestTools(classic, document, source);
    if (params.dry_run) {
      const shown = withStoredIds(document, { id: '', api_id: classic.api_id ?? newPublicId(), org_id: org });
      return { document: withoutDbId(params.expand ? expandMcpDocument(shown, source?.oas) : shown) };
    }
    let stored: OasApiDocument = document;
    const record = await this.catalogue.create(
      { org_scope: params.org_scope, api_definition: classic, hook_references: hookReferences },
      (ids) => (stored = withStoredIds(document, ids)),
    );
    return { document: stored, api_definition: record.api_definition };
  }

  async update(params: ApisUpdateMcpParams): Promise<ApisMcpWriteResult> {
    const existing = await this.findMcp(params.id, params.org_scope);
    const { document, classic, hookReferences } = compileOasDefinition(parseDocumentText(params.document_text), {
      ...this.options,
      mcp: true,
    });
    if (params.keep_api_id && classic.api_id !== existing.definition.api_id)
      throw ApisErrors.idMismatch(params.id, String(classic.api_id ?? ''));
    const org = params.org_scope ?? classic.org_id ?? existing.definition.org_id;
    withRestTools(classic, document, await this.restSource(classic, org, params.org_scope !== undefined));
    const { id, api_id, org_id } = existing.definition;
    if (params.dry_run) return { document: withStoredIds(document, { id, api_id: classic.api_id ?? api_id, org_id }) };
    let stored: OasApiDocument = document;
    const record = await this.catalogue.update(
      { id: params.id, org_scope: params.org_scope, api_definition: classic, hook_references: hookReferences },
      (ids) => (stored = withStoredIds(document, ids)),
    );
    return { document: stored, api_definition: record.api_definition };
  }

  async get(params: ApisGetMcpParams): Promise<OasApiDocument> {
    const found = await this.findMcp(params.id, params.org_scope);
    if (!params.expand) return found.oas!;
    const source = await this.restSource(found.definition, found.definition.org_id, params.org_scope !== undefined);
    return expandMcpDocument(found.oas!, source?.oas);
  }

  async list(params: ApisListParams): Promise<ApisListOasResult> {
    const { items, total } = await this.store.list(
      { orgScope: params.org_scope, oasOnly: true, mcp: true, nameContains: params.q },
      pageWindow(params.page ?? 1, this.pageSize),
    );
    return { apis: items.map((item) => item.oas!), pages: pageCount(total, this.pageSize) };
  }

  async remove(params: ApisRemoveParams): Promise<ApisRemoveResult> {
    await this.findMcp(params.id, params.org_scope);
    return this.catalogue.remove(params);
  }

  private async findMcp(id: string, orgScope: string | undefined): Promise<StoredApi> {
    const found = await this.store.findByAnyId(id, orgScope);
    if (!found) throw ApisErrors.notFound(id);
    if (!found.oas || !isMcpDefinition(found.definition)) throw ApisErrors.notMcp(id);
    return found;
  }

  /**
   * The REST source of a `gw://<api_id>/mcp` upstream: an OAS API of the same organisation. The
   * gateway API answers another organisation's with 403 as the reference does; a tenant
   * (`tenantScoped`) is told it does not exist, since other organisations' ids are not theirs to learn.
   */
  private async restSource(
    classic: ClassicInput | StoredApi['definition'],
    org: string,
    tenantScoped: boolean,
  ): Promise<StoredApi | undefined> {
    const sourceId = (classic as { mcp?: { rest_source?: string } }).mcp?.rest_source;
    if (sourceId === undefined) return undefined;
    const found = await this.store.findByApiId(sourceId);
    const missing = `REST source API ${sourceId} does not exist; create it first`;
    if (!found) throw ApisErrors.mcpSource(400, missing, sourceId);
    if (found.definition.org_id !== org) {
      if (tenantScoped) throw ApisErrors.mcpSource(400, missing, sourceId);
      throw ApisErrors.mcpSource(403, 'REST source API belongs to a different organisation', sourceId);
    }
    if (!found.oas || isMcpDefinition(found.definition))
      throw ApisErrors.mcpSource(
        400,
        `REST source API ${sourceId} is not an OAS API; REST-as-MCP sources must be OAS APIs`,
        sourceId,
      );
    return found;
  }
}

/** Keeps the tools of a REST-as-MCP API in its classic definition (see mcp-rest-view.ts). */
function withRestTools(classic: ClassicInput, document: OasApiDocument, source: StoredApi | undefined): void {
  const mcp = (classic as { mcp?: { rest_source?: string; rest_tools?: unknown[] } }).mcp;
  if (!mcp?.rest_source || !source?.oas) return;
  mcp.rest_tools = restToolsOf(document, source.oas, mcp.rest_source);
}

/** A dry run has no stored record, so no internal id to show. */
function withoutDbId(document: OasApiDocument): OasApiDocument {
  const extension = document['x-gw-api-gateway'] as { info: Record<string, unknown> };
  delete extension.info.dbId;
  return document;
}
