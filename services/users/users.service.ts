import type { Context, ServiceSchema } from 'moleculer';
import { usersActionParams, type UsersAuthenticateParams, type UsersCreateParams, type UsersGetParams } from '../../contracts/users/actions';
import { isGwError } from '../../lib/errors';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { UserDirectory } from './lib/user-directory';
import { USERS_MIGRATIONS } from './lib/migrations';

/** Dashboard users (what bootstrap needs: create, read, and resolving an access key). */
export function usersService(runtime: Runtime): ServiceSchema {
  let directory: UserDirectory;
  return {
    name: 'users',
    actions: {
      create: { params: usersActionParams.create, handler: (ctx: Context<UsersCreateParams>) => directory.create(ctx.params.user) },
      get: { params: usersActionParams.get, handler: (ctx: Context<UsersGetParams>) => directory.get(ctx.params.id, ctx.params.org_scope) },
      authenticate: { params: usersActionParams.authenticate, handler: (ctx: Context<UsersAuthenticateParams>) => directory.authenticate(ctx.params.access_key) },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'users', USERS_MIGRATIONS);
      const orgExists = (orgId: string) =>
        this.broker.call('orgs.get', { id: orgId }).then(
          () => true,
          (err: unknown) => (isGwError(err, 'GW_ERR_ORGS_NOT_FOUND') ? false : Promise.reject(err)),
        );
      directory = new UserDirectory(db, orgExists);
    },
  };
}
