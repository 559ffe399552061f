import type { Context, ServiceSchema } from 'moleculer';
import type { HookReference } from '../../contracts/apis/api-definition';
import { APIS_CHANGED } from '../../contracts/apis/events';
import { GATEWAY_EVENT_PREFIX, type GatewayEvent } from '../../contracts/events';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import {
  webhooksActionParams,
  type WebhooksCreateParams,
  type WebhooksUpdateParams,
} from '../../contracts/webhooks/actions';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import { isGwError } from '../../lib/errors';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { webhookTemplatesFolder } from '../../lib/webhook-templates';
import { EventDelivery } from './lib/event-delivery';
import { HookStore } from './lib/hook-store';
import { checkTargetAddress } from './lib/target-address';
import { checkTemplatePath } from './lib/template-file';
import { WEBHOOKS_MIGRATIONS } from './lib/migrations';

type Scoped = { id: string; org_scope?: string };

/** Webhook definitions, and delivery of gateway events to the hooks APIs reference. */
export function webhooksService(runtime: Runtime, options: { backoffMs?: number[] } = {}): ServiceSchema {
  let store: HookStore;
  let delivery: EventDelivery;
  /** hook references (and the organisation) per API id, dropped when the API changes */
  type ApiHooks = { orgId: string; references: HookReference[] };
  const references = new Map<string, ApiHooks>();
  return {
    name: 'webhooks',
    actions: {
      list: {
        params: webhooksActionParams.list,
        handler: (ctx: Context<{ org_scope?: string; page?: number }>) =>
          store.list(ctx.params.org_scope, ctx.params.page ?? 1),
      },
      get: {
        params: webhooksActionParams.get,
        handler: (ctx: Context<Scoped>) => store.get(ctx.params.id, ctx.params.org_scope),
      },
      create: {
        params: webhooksActionParams.create,
        handler: async (ctx: Context<WebhooksCreateParams>) => {
          checkTemplatePath(ctx.params.hook);
          await checkTargetAddress(ctx.params.hook);
          return store.create(ctx.params.hook, ctx.params.org_scope);
        },
      },
      update: {
        params: webhooksActionParams.update,
        handler: async (ctx: Context<WebhooksUpdateParams>) => {
          checkTemplatePath(ctx.params.hook);
          await checkTargetAddress(ctx.params.hook);
          return store.update(ctx.params.id, ctx.params.hook, ctx.params.org_scope);
        },
      },
      remove: {
        params: webhooksActionParams.remove,
        handler: (ctx: Context<Scoped>) => store.remove(ctx.params.id, ctx.params.org_scope),
      },
      deliveries: {
        params: webhooksActionParams.deliveries,
        handler: async (ctx: Context<Scoped>) => {
          await store.get(ctx.params.id, ctx.params.org_scope);
          return { deliveries: await store.deliveries(ctx.params.id) };
        },
      },
    } satisfies ServiceActions<'webhooks'>,
    events: {
      [`${GATEWAY_EVENT_PREFIX}*`]: {
        handler(ctx: Context<GatewayEvent>) {
          delivery
            .handle(ctx.params)
            .catch((err: Error) =>
              this.logger.warn(`event ${String(ctx.params?.event)} not delivered: ${err.message}`),
            );
        },
      },
      [APIS_CHANGED]: {
        handler() {
          references.clear();
        },
      },
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        handler(ctx: Context<OrgsDeletedEvent>) {
          return store.removeOrganisation(ctx.params.org_id);
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'webhooks', WEBHOOKS_MIGRATIONS);
      store = new HookStore(db, runtime.config.pageSize);
      delivery = new EventDelivery({
        hookReferences: async (apiId) => {
          let refs = references.get(apiId);
          if (!refs) {
            refs = await callAction(this.broker, 'apis.get', { id: apiId }).then(
              (record): ApiHooks => ({ orgId: record.api_definition.org_id, references: record.hook_references ?? [] }),
              (err: unknown): ApiHooks | Promise<never> =>
                isGwError(err, 'GW_ERR_APIS_NOT_FOUND') ? { orgId: '', references: [] } : Promise.reject(err),
            );
            references.set(apiId, refs);
          }
          return refs;
        },
        storedHook: (id, orgId) => store.find(id, orgId),
        templatesFolder: webhookTemplatesFolder(runtime.config.templatePath),
        log: (entry) => {
          runtime.metrics.webhookDelivered(entry.event, entry.status);
          return store.logDelivery(entry);
        },
        warn: (message) => this.logger.warn(message),
        backoffMs: options.backoffMs,
        tracing: runtime.tracing,
      });
    },
  };
}
