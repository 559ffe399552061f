import { readFileSync } from 'node:fs';
import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import {
  orgsActionParams,
  type OrgsCreateParams,
  type OrgsGetParams,
  type OrgsListParams,
  type OrgsRemoveParams,
  type OrgsUpdateParams,
} from '../../contracts/orgs/actions';
import {
  ORGS_DELETED,
  ORGS_SETTINGS_CHANGED,
  ORGS_SETTINGS_REVISION,
  type OrgsSettingsChangedEvent,
  type OrgsSettingsRevisionEvent,
} from '../../contracts/orgs/events';
import type { ServiceActions } from '../../lib/bus/actions';
import { projectFile } from '../../lib/project-file';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { OrgDirectory } from './lib/org-directory';
import { OrgSettings, type OpenPolicy } from './lib/org-settings';
import { ORGS_MIGRATIONS } from './lib/migrations';

function announce(broker: ServiceBroker, orgId: string, revision: number): Promise<void> {
  return broker.broadcast(ORGS_SETTINGS_CHANGED, { org_id: orgId, revision } satisfies OrgsSettingsChangedEvent);
}

/** Organisations and their organisation-level settings. Deleting one tells every service to drop what it holds for it. */
export function orgsService(runtime: Runtime): ServiceSchema {
  let directory: OrgDirectory;
  let settings: OrgSettings;
  return {
    name: 'orgs',
    actions: {
      list: { params: orgsActionParams.list, handler: (ctx: Context<OrgsListParams>) => directory.list(ctx.params) },
      get: { params: orgsActionParams.get, handler: (ctx: Context<OrgsGetParams>) => directory.get(ctx.params.id) },
      create: {
        params: orgsActionParams.create,
        handler: (ctx: Context<OrgsCreateParams>) => directory.create(ctx.params.organisation),
      },
      update: {
        params: orgsActionParams.update,
        async handler(ctx: Context<OrgsUpdateParams>) {
          const updated = await directory.update(ctx.params.id, ctx.params.organisation);
          await announce(this.broker, ctx.params.id, await settings.touch());
          return updated;
        },
      },
      remove: {
        params: orgsActionParams.remove,
        async handler(ctx: Context<OrgsRemoveParams>) {
          await directory.remove(ctx.params.id);
          await announce(this.broker, ctx.params.id, await settings.remove(ctx.params.id));
          await this.broker.broadcast(ORGS_DELETED, { org_id: ctx.params.id });
        },
      },
      'settings.get': {
        params: orgsActionParams['settings.get'],
        handler: async (ctx: Context<{ org_id: string }>) => ({
          additional_permissions: await settings.additionalPermissions(ctx.params.org_id),
          open_policy: await settings.openPolicy(ctx.params.org_id),
        }),
      },
      'settings.setPermissions': {
        params: orgsActionParams['settings.setPermissions'],
        handler: (ctx: Context<{ org_id: string; additional_permissions: Record<string, string> }>) =>
          settings.setAdditionalPermissions(ctx.params.org_id, ctx.params.additional_permissions),
      },
      'settings.setOpenPolicy': {
        params: orgsActionParams['settings.setOpenPolicy'],
        async handler(ctx: Context<{ org_id: string; open_policy: OpenPolicy }>) {
          await announce(
            this.broker,
            ctx.params.org_id,
            await settings.setOpenPolicy(ctx.params.org_id, ctx.params.open_policy),
          );
        },
      },
      'openPolicy.get': {
        params: orgsActionParams['openPolicy.get'],
        async handler(ctx: Context<{ org_id: string }>) {
          // The revision is read first: a change landing meanwhile makes the answer look older, never newer.
          const revision = await settings.revision();
          const [openPolicy, org] = await Promise.all([
            settings.openPolicy(ctx.params.org_id),
            directory.find(ctx.params.org_id),
          ]);
          return {
            open_policy: openPolicy,
            org: org
              ? { id: org.id, owner_name: org.owner_name, owner_slug: org.owner_slug }
              : { id: ctx.params.org_id },
            revision,
          };
        },
      },
      'openPolicy.revision': {
        params: orgsActionParams['openPolicy.revision'],
        handler: async () => ({ revision: await settings.revision() }),
      },
    } satisfies ServiceActions<'orgs'>,
    events: {
      // A node joined or came back: it may hold policy rules changed while it was unreachable.
      '$services.changed': {
        async handler(ctx: Context<{ localService: boolean }>) {
          if (ctx.params.localService || !settings) return;
          try {
            await this.broker.broadcast(ORGS_SETTINGS_REVISION, {
              revision: await settings.revision(),
            } satisfies OrgsSettingsRevisionEvent);
          } catch (err) {
            this.logger.warn(`could not announce the organisation settings revision: ${(err as Error).message}`);
          }
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'orgs', ORGS_MIGRATIONS);
      directory = new OrgDirectory(db, runtime.config.pageSize);
      settings = new OrgSettings(db, {
        additionalPermissions: JSON.parse(runtime.config.additionalPermissions) as Record<string, string>,
        openPolicy: {
          enabled: false,
          rules: readFileSync(projectFile('services/orgs/default-opa-rules.rego'), 'utf8'),
        },
      });
    },
  };
}
