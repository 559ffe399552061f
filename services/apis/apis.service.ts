import type { Context, ServiceSchema } from 'moleculer';
import {
  apisActionParams,
  type ApisImportDataSourceParams,
  type ApisSyncGraphqlSchemaParams,
  type ApisCreateOasParams,
  type ApisListOasParams,
  type ApisUpdateOasParams,
  type ApisPatchOasParams,
  type ApisImportOasParams,
  type ApisOasSchemaParams,
  type ApisCreateParams,
  type ApisGetParams,
  type ApisListParams,
  type ApisRemoveParams,
  type ApisUpdateParams,
  type ApisCreateMcpParams,
  type ApisUpdateMcpParams,
  type ApisGetMcpParams,
} from '../../contracts/apis/actions';
import { APIS_CHANGED, APIS_REVISION, type ApisRevisionEvent } from '../../contracts/apis/events';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import { isGwError } from '../../lib/errors';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { ApiCatalogue } from './lib/api-catalogue';
import { ApiStore } from './lib/api-store';
import { compileOasText, OasCatalogue } from './lib/oas-catalogue';
import { oasSchemaFor } from './lib/oas/oas-schema';
import { McpCatalogue } from './lib/mcp-catalogue';
import { checkCustomMiddleware } from './lib/custom-middleware';
import { checkHookReferences } from './lib/hook-references';
import { checkCertificateReferences } from './lib/certificate-references';
import { importDataSource } from './lib/data-source-import/data-source-importer';
import { introspectUpstream } from './lib/schema-sync';
import { APIS_MIGRATIONS } from './lib/migrations';
import { assertOutboundTargets } from './lib/outbound-targets';
import { streamingProblems, type MappingCheck } from '../../lib/streams/config-check';
import { ApisErrors } from './errors';

/** API definitions: storage, rules, and the `apis.changed` and `apis.revision` broadcasts. */
export interface ApisServiceOptions {
  /** the Bloblang syntax check of stream mappings, so a bad one is refused when saved */
  streamMappingCheck?: MappingCheck;
}

export function apisService(runtime: Runtime, options: ApisServiceOptions = {}): ServiceSchema {
  let catalogue: ApiCatalogue;
  let oas: OasCatalogue;
  let mcp: McpCatalogue;
  return {
    name: 'apis',
    actions: {
      list: { params: apisActionParams.list, handler: (ctx: Context<ApisListParams>) => catalogue.list(ctx.params) },
      get: { params: apisActionParams.get, handler: (ctx: Context<ApisGetParams>) => catalogue.get(ctx.params) },
      create: {
        params: apisActionParams.create,
        handler: (ctx: Context<ApisCreateParams>) => catalogue.create(ctx.params),
      },
      update: {
        params: apisActionParams.update,
        handler: (ctx: Context<ApisUpdateParams>) => catalogue.update(ctx.params),
      },
      remove: {
        params: apisActionParams.remove,
        handler: (ctx: Context<ApisRemoveParams>) => catalogue.remove(ctx.params),
      },
      createOas: {
        params: apisActionParams.createOas,
        handler: (ctx: Context<ApisCreateOasParams>) => oas.create(ctx.params),
      },
      updateOas: {
        params: apisActionParams.updateOas,
        handler: (ctx: Context<ApisUpdateOasParams>) => oas.update(ctx.params),
      },
      patchOas: {
        params: apisActionParams.patchOas,
        handler: (ctx: Context<ApisPatchOasParams>) => oas.patch(ctx.params),
      },
      importOas: {
        params: apisActionParams.importOas,
        handler: (ctx: Context<ApisImportOasParams>) => oas.import(ctx.params),
      },
      oasSchema: {
        params: apisActionParams.oasSchema,
        handler: (ctx: Context<ApisOasSchemaParams>) => ({ schema: oasSchemaFor(ctx.params.oas_version) }),
      },
      getOas: { params: apisActionParams.getOas, handler: (ctx: Context<ApisGetParams>) => oas.get(ctx.params) },
      exportOas: {
        params: apisActionParams.exportOas,
        handler: (ctx: Context<ApisGetParams>) => oas.export(ctx.params),
      },
      compileOas: {
        params: apisActionParams.compileOas,
        handler: (ctx: Context<{ document_text: string }>) =>
          compileOasText(ctx.params.document_text, { mappingCheck: options.streamMappingCheck }),
      },
      createMcp: {
        params: apisActionParams.createMcp,
        handler: (ctx: Context<ApisCreateMcpParams>) => mcp.create(ctx.params),
      },
      updateMcp: {
        params: apisActionParams.updateMcp,
        handler: (ctx: Context<ApisUpdateMcpParams>) => mcp.update(ctx.params),
      },
      getMcp: { params: apisActionParams.getMcp, handler: (ctx: Context<ApisGetMcpParams>) => mcp.get(ctx.params) },
      listMcp: { params: apisActionParams.listMcp, handler: (ctx: Context<ApisListParams>) => mcp.list(ctx.params) },
      removeMcp: {
        params: apisActionParams.removeMcp,
        handler: (ctx: Context<ApisRemoveParams>) => mcp.remove(ctx.params),
      },
      listOas: { params: apisActionParams.listOas, handler: (ctx: Context<ApisListOasParams>) => oas.list(ctx.params) },
      snapshot: { params: apisActionParams.snapshot, handler: () => catalogue.snapshot() },
      currentRevision: { params: apisActionParams.currentRevision, handler: () => catalogue.currentRevision() },
      syncGraphqlSchema: {
        params: apisActionParams.syncGraphqlSchema,
        handler: (ctx: Context<ApisSyncGraphqlSchemaParams>) =>
          catalogue.syncGraphqlSchema(ctx.params, introspectUpstream),
      },
      importDataSource: {
        params: apisActionParams.importDataSource,
        handler: (ctx: Context<ApisImportDataSourceParams>) =>
          importDataSource(ctx.params, (params) => catalogue.create(params)),
      },
    } satisfies ServiceActions<'apis'>,
    events: {
      // A node joined or came back: it may have missed changes before this node could reach it.
      '$services.changed': {
        async handler(ctx: Context<{ localService: boolean }>) {
          if (ctx.params.localService || !catalogue) return;
          try {
            const announcement: ApisRevisionEvent = await catalogue.currentRevision();
            await this.broker.broadcast(APIS_REVISION, announcement);
          } catch (err) {
            this.logger.warn(`could not announce the API revision: ${(err as Error).message}`);
          }
        },
      },
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        async handler(ctx: Context<OrgsDeletedEvent>) {
          const removed = await catalogue.removeOrganisation(ctx.params.org_id);
          this.logger.info(`organisation ${ctx.params.org_id} deleted: removed its ${removed} APIs`);
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'apis', APIS_MIGRATIONS);
      const hookExists = (id: string, orgId: string) =>
        callAction(this.broker, 'webhooks.get', { id, org_scope: orgId }).then(
          () => true,
          (err: unknown) => (isGwError(err, 'GW_ERR_WEBHOOKS_NOT_FOUND') ? false : Promise.reject(err)),
        );
      const certificatesOwned = (ids: string[], orgId: string) =>
        callAction(this.broker, 'certs.material', { ids, org_id: orgId, public_only: true }).then(
          (found) => new Set(found.map((certificate) => certificate.id)),
        );
      const store = new ApiStore(db);
      catalogue = new ApiCatalogue(
        store,
        runtime.config.pageSize,
        (event) => void this.broker.broadcast(APIS_CHANGED, event),
        Date.now,
        (apiId) =>
          callAction(this.broker, 'keys.apiUsage', { api_id: apiId }).then((usage) => usage.keys + usage.policies > 0),
        async (definition, hookReferences) => {
          checkCustomMiddleware(definition, runtime.config.pluginPackages);
          if (definition.streaming !== undefined) {
            const problems = streamingProblems(definition.streaming, '/streaming', options.streamMappingCheck);
            if (problems.length > 0) throw ApisErrors.invalid(`Invalid stream configuration: ${problems.join('; ')}`);
          }
          await checkHookReferences(hookReferences, definition.org_id, hookExists);
          await checkCertificateReferences(definition, certificatesOwned);
          await assertOutboundTargets(definition, hookReferences);
        },
      );
      oas = new OasCatalogue(catalogue, store, runtime.config.pageSize, { mappingCheck: options.streamMappingCheck });
      mcp = new McpCatalogue(catalogue, store, runtime.config.pageSize, { mappingCheck: options.streamMappingCheck });
    },
  };
}
