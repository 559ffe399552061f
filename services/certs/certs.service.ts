import type { Context, ServiceSchema } from 'moleculer';
import {
  certsActionParams,
  type CertsCreateParams,
  type CertsGetParams,
  type CertsListParams,
  type CertsMaterialParams,
} from '../../contracts/certs/actions';
import { CERTS_CHANGED, type CertsChangedEvent } from '../../contracts/certs/events';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import type { ServiceActions } from '../../lib/bus/actions';
import type { Runtime } from '../../lib/runtime';
import { SecretBox } from '../../lib/secret-box';
import { migrate } from '../../lib/store/migrate';
import { CertStore } from './lib/cert-store';
import { CERTS_MIGRATIONS } from './lib/migrations';

/** The purpose the private-key encryption key is derived for (lib/secret-box.ts). */
const KEY_PURPOSE = 'certs: private keys at rest';

/** The certificate store: PEM certificates, private keys sealed with a key derived from GW_SECRET. */
export function certsService(runtime: Runtime): ServiceSchema {
  let store: CertStore;
  const changed = (broker: { broadcast(name: string, payload: unknown): Promise<void> }, event: CertsChangedEvent) =>
    void broker.broadcast(CERTS_CHANGED, event);
  return {
    name: 'certs',
    actions: {
      create: {
        params: certsActionParams.create,
        handler: async (ctx: Context<CertsCreateParams>) => {
          const created = await store.create(ctx.params.pem, ctx.params.org_scope ?? ctx.params.org_id ?? '');
          changed(ctx.broker, { action: 'created', id: created.id });
          return created;
        },
      },
      list: {
        params: certsActionParams.list,
        handler: (ctx: Context<CertsListParams>) =>
          store.list(ctx.params.org_scope, ctx.params.mode === 'detailed', ctx.params.page),
      },
      get: {
        params: certsActionParams.get,
        handler: (ctx: Context<CertsGetParams>) => store.get(ctx.params.id, ctx.params.org_scope),
      },
      remove: {
        params: certsActionParams.remove,
        handler: async (ctx: Context<CertsGetParams>) => {
          await store.remove(ctx.params.id, ctx.params.org_scope);
          changed(ctx.broker, { action: 'deleted', id: ctx.params.id });
          return { id: ctx.params.id };
        },
      },
      material: {
        params: certsActionParams.material,
        handler: (ctx: Context<CertsMaterialParams>) =>
          store.material(ctx.params.ids, ctx.params.org_id, ctx.params.public_only === true),
      },
    } satisfies ServiceActions<'certs'>,
    events: {
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        async handler(ctx: Context<OrgsDeletedEvent>) {
          for (const id of await store.removeOrganisation(ctx.params.org_id))
            changed(this.broker, { action: 'deleted', id });
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'certs', CERTS_MIGRATIONS);
      store = new CertStore(db, new SecretBox(runtime.config.secret, KEY_PURPOSE), runtime.config.pageSize);
    },
  };
}
