import type { ApiRecord } from '../../../contracts/apis/api-definition';
import type {
  ApisCreateOasParams,
  ApisGetParams,
  ApisImportOasParams,
  ApisListOasParams,
  ApisListOasResult,
  ApisPatchOasParams,
  ApisUpdateOasParams,
  OasApiDocument,
} from '../../../contracts/apis/actions';
import { pageCount, pageWindow } from '../../../lib/pagination';
import { ApisErrors } from '../errors';
import type { ApiCatalogue } from './api-catalogue';
import type { ApiStore } from './api-store';
import { isMcpDefinition } from './migrations';
import { importDocument, patchDocument } from './oas/patch';
import {
  classicToOas,
  compileOasDefinition,
  GATEWAY_EXTENSION,
  parseDocumentText,
  STREAMING_EXTENSION,
  withStoredIds,
  type ClassicInput,
  type CompileOptions,
} from './oas';

/**
 * API definitions in OAS form. The document is checked and compiled into a classic definition,
 * which goes through the same rules, store and change events as any other (ApiCatalogue); the
 * document is stored beside it, with the ids the API was given, for reads and export.
 */
export class OasCatalogue {
  constructor(
    private readonly catalogue: ApiCatalogue,
    private readonly store: ApiStore,
    private readonly pageSize: number,
    private readonly options: CompileOptions = {},
  ) {}

  async create(params: ApisCreateOasParams): Promise<ApiRecord> {
    const raw = parseDocumentText(params.document_text);
    if (params.generate_ids) dropIds(raw);
    const { document, classic, hookReferences } = compileOasDefinition(raw, {
      ...this.options,
      requireStreaming: params.streams === true,
    });
    await this.assertChildVersionsExist(classic, params.org_scope);
    return this.catalogue.create(
      { org_scope: params.org_scope, api_definition: classic, hook_references: hookReferences },
      (ids) => withStoredIds(document, ids),
    );
  }

  /** A plain OpenAPI document, given the gateway settings an import builds (oas/patch.ts), stored as a new API. */
  async import(params: ApisImportOasParams): Promise<ApiRecord> {
    const document = importDocument(parseDocumentText(params.document_text), params.overrides, params.api_id);
    return this.create({ org_scope: params.org_scope, document_text: JSON.stringify(document) });
  }

  async update(params: ApisUpdateOasParams): Promise<ApiRecord> {
    const { document, classic, hookReferences } = compileOasDefinition(parseDocumentText(params.document_text), {
      ...this.options,
      requireStreaming: params.streams === true,
    });
    if (params.streams === true) await this.get({ id: params.id, org_scope: params.org_scope, streams: true });
    await this.assertChildVersionsExist(classic, params.org_scope);
    const existing = await this.store.findByAnyId(params.id, params.org_scope);
    // An MCP API is written through /mcps only: compiled here it would lose its `mcp` block.
    if (existing && isMcpDefinition(existing.definition)) throw ApisErrors.isMcp(existing.definition.api_id);
    if (params.keep_api_id && classic.api_id !== undefined) {
      if (existing && existing.definition.api_id !== classic.api_id)
        throw ApisErrors.idMismatch(params.id, classic.api_id);
    }
    return this.catalogue.update(
      { id: params.id, org_scope: params.org_scope, api_definition: classic, hook_references: hookReferences },
      (ids) => withStoredIds(document, ids),
    );
  }

  /**
   * A document sent with its own gateway extension and no overrides replaces the stored one, as
   * an update; otherwise it is merged into the stored one first (oas/patch.ts).
   */
  async patch(params: ApisPatchOasParams): Promise<ApiRecord> {
    const stored = await this.get({ id: params.id, org_scope: params.org_scope });
    const sent = parseDocumentText(params.document_text);
    const { overrides: given } = params;
    const overrides = given && Object.keys(given).length > 0 ? given : undefined;
    const text =
      sent[GATEWAY_EXTENSION] !== undefined && !overrides
        ? params.document_text
        : JSON.stringify(patchDocument(stored, sent, overrides));
    const { id, org_scope } = params;
    return this.update({ id, org_scope, document_text: text, keep_api_id: true });
  }

  /**
   * `info.versioning.versions[].id` names APIs of the base API's own organisation only: an id
   * that is unknown there is refused with its pointer rather than stored and never served.
   */
  private async assertChildVersionsExist(classic: ClassicInput, orgScope: string | undefined): Promise<void> {
    const versions = (classic as { definition?: { versions?: Record<string, string> } }).definition?.versions ?? {};
    const org = orgScope ?? (classic as { org_id?: string }).org_id;
    const problems: string[] = [];
    let i = 0;
    for (const [name, id] of Object.entries(versions)) {
      const found = await this.store.findByAnyId(id, orgScope);
      if (!found || (org !== undefined && found.definition.org_id !== org) || found.definition.api_id !== id) {
        problems.push(
          `/${GATEWAY_EXTENSION}/info/versioning/versions/${i}/id: no API with id '${id}' (version '${name}') in this organisation`,
        );
      }
      i++;
    }
    if (problems.length > 0) throw ApisErrors.invalidOas(problems);
  }

  async get(params: ApisGetParams): Promise<OasApiDocument> {
    const found = await this.store.findByAnyId(params.id, params.org_scope);
    if (!found) throw ApisErrors.notFound(params.id);
    if (!found.oas) throw ApisErrors.notOas(found.definition.api_id);
    if (isMcpDefinition(found.definition)) throw ApisErrors.isMcp(found.definition.api_id);
    if (params.streams === true && found.oas[STREAMING_EXTENSION] === undefined) throw ApisErrors.notFound(params.id);
    return found.oas;
  }

  /** The stored document of an OAS API; a classic API as an OAS document. */
  async export(params: ApisGetParams): Promise<OasApiDocument> {
    const found = await this.store.findByAnyId(params.id, params.org_scope);
    if (!found) throw ApisErrors.notFound(params.id);
    return found.oas ?? classicToOas(found.definition);
  }

  async list(params: ApisListOasParams): Promise<ApisListOasResult> {
    const { items, total } = await this.store.list(
      // MCP APIs are listed by /mcps only, as the reference keeps them apart.
      { orgScope: params.org_scope, oasOnly: true, streamsOnly: params.streams === true, mcp: false },
      pageWindow(params.page ?? 1, this.pageSize),
    );
    return { apis: items.map((item) => item.oas!), pages: pageCount(total, this.pageSize) };
  }
}

/** A document compiled without storing it: the classic definition a gateway serves for an OAS definition file. */
export async function compileOasText(
  text: string,
  options: CompileOptions = {},
): Promise<{ api_definition: ClassicInput }> {
  return { api_definition: compileOasDefinition(parseDocumentText(text), options).classic };
}

/** On the dashboard the store gives the ids, whatever the document says. */
export function dropIds(raw: Record<string, unknown>): void {
  const extension = raw[GATEWAY_EXTENSION] as { info?: Record<string, unknown> } | undefined;
  if (extension?.info && typeof extension.info === 'object') {
    delete extension.info.id;
    delete extension.info.dbId;
    delete extension.info.orgId;
  }
}
