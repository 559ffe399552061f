import type { Context, ServiceSchema } from 'moleculer';
import { orgsActionParams, type OrgsCreateParams, type OrgsGetParams, type OrgsListParams, type OrgsRemoveParams, type OrgsUpdateParams } from '../../contracts/orgs/actions';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { OrgDirectory } from './lib/org-directory';
import { ORGS_MIGRATIONS } from './lib/migrations';

/** Organisations. */
export function orgsService(runtime: Runtime): ServiceSchema {
  let directory: OrgDirectory;
  return {
    name: 'orgs',
    actions: {
      list: { params: orgsActionParams.list, handler: (ctx: Context<OrgsListParams>) => directory.list(ctx.params) },
      get: { params: orgsActionParams.get, handler: (ctx: Context<OrgsGetParams>) => directory.get(ctx.params.id) },
      create: { params: orgsActionParams.create, handler: (ctx: Context<OrgsCreateParams>) => directory.create(ctx.params.organisation) },
      update: { params: orgsActionParams.update, handler: (ctx: Context<OrgsUpdateParams>) => directory.update(ctx.params.id, ctx.params.organisation) },
      remove: { params: orgsActionParams.remove, handler: (ctx: Context<OrgsRemoveParams>) => directory.remove(ctx.params.id) },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'orgs', ORGS_MIGRATIONS);
      directory = new OrgDirectory(db, runtime.config.pageSize);
    },
  };
}
