import type { Context, ServiceSchema } from 'moleculer';
import { ORGS_DELETED, orgsDeletedEventParams, type OrgsDeletedEvent } from '../../contracts/orgs/events';
import {
  usersActionParams,
  type LoginResult,
  type SsoCreateParams,
  type GroupsCreateParams,
  type GroupsUpdateParams,
  type UsersAuthenticateParams,
  type UsersLogoutParams,
  type UsersChangeParams,
  type UsersCreateParams,
  type UsersGetParams,
  type UsersResetPasswordParams,
  type UsersUpdateParams,
} from '../../contracts/users/actions';
import type { ServiceActions } from '../../lib/bus/actions';
import { callAction } from '../../lib/bus/call';
import { isGwError } from '../../lib/errors';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { UsersErrors } from './errors';
import { GroupDirectory } from './lib/group-directory';
import { LoginSessions } from './lib/login-sessions';
import { SsoNonces } from './lib/sso-nonces';
import { assertSsoGrantFits } from './lib/column-limits';
import { USERS_MIGRATIONS } from './lib/migrations';
import { revealNewKey, UserDirectory } from './lib/user-directory';

type Scoped = { org_scope?: string; page?: number };

/** Dashboard users, user groups, their permissions, API credentials and login sessions. */
export function usersService(runtime: Runtime): ServiceSchema {
  const { pageSize } = runtime.config;
  let users: UserDirectory;
  let groups: GroupDirectory;
  let sessions: LoginSessions;
  let nonces: SsoNonces;
  let orgExists: (orgId: string) => Promise<boolean>;
  return {
    name: 'users',
    actions: {
      list: {
        params: usersActionParams.list,
        handler: (ctx: Context<Scoped>) => users.list(ctx.params.org_scope, ctx.params.page ?? 1, pageSize),
      },
      get: {
        params: usersActionParams.get,
        handler: (ctx: Context<UsersGetParams>) => users.get(ctx.params.id, ctx.params.org_scope),
      },
      create: {
        params: usersActionParams.create,
        handler: async (ctx: Context<UsersCreateParams>) => {
          const { user, org_scope, actor } = ctx.params;
          return revealNewKey(await users.create(user, org_scope, actor));
        },
      },
      update: {
        params: usersActionParams.update,
        handler: (ctx: Context<UsersUpdateParams>) => {
          const { id, user, org_scope, actor } = ctx.params;
          return users.update(id, user, org_scope, actor);
        },
      },
      remove: {
        params: usersActionParams.remove,
        handler: (ctx: Context<UsersChangeParams>) =>
          users.remove(ctx.params.id, ctx.params.org_scope, ctx.params.actor),
      },
      resetPassword: {
        params: usersActionParams.resetPassword,
        handler: (ctx: Context<UsersResetPasswordParams>) => users.resetPassword(ctx.params),
      },
      resetKey: {
        params: usersActionParams.resetKey,
        handler: async (ctx: Context<UsersChangeParams>) => {
          const { id, org_scope, actor } = ctx.params;
          return revealNewKey(await users.resetKey(id, org_scope, actor));
        },
      },
      setResetPasswords: {
        params: usersActionParams.setResetPasswords,
        handler: (ctx: Context<{ id: string; allowed: boolean }>) =>
          users.setResetPasswords(ctx.params.id, ctx.params.allowed),
      },
      authenticate: {
        params: usersActionParams.authenticate,
        async handler(ctx: Context<UsersAuthenticateParams>) {
          if (ctx.params.session) return users.callerById(await sessions.userOf(ctx.params.session));
          if (ctx.params.access_key_hash) return users.callerByAccessKeyHash(ctx.params.access_key_hash);
          throw UsersErrors.badAccessKey();
        },
      },
      login: {
        params: usersActionParams.login,
        async handler(ctx: Context<{ email_address: string; password: string }>): Promise<LoginResult> {
          const user = await users.checkLogin(ctx.params.email_address, ctx.params.password);
          const { session, expiresAt } = await sessions.open(user.id);
          return { session, expires_at: new Date(expiresAt).toISOString(), user };
        },
      },
      logout: {
        params: usersActionParams.logout,
        handler: (ctx: Context<UsersLogoutParams>) => sessions.close(ctx.params.session),
      },
      'sso.create': {
        params: usersActionParams['sso.create'],
        async handler(ctx: Context<SsoCreateParams>) {
          const { ForSection, OrgID, EmailAddress, GroupID, org_scope, actor } = ctx.params;
          if (ForSection === 'portal') throw UsersErrors.portalUnsupported();
          assertSsoGrantFits(ctx.params);
          if (org_scope !== undefined && OrgID !== org_scope) throw UsersErrors.wrongOrg(OrgID);
          if (GroupID) await groups.requireInOrg(GroupID, OrgID);
          else if (!(await orgExists(OrgID))) throw UsersErrors.unknownOrg(OrgID);
          // Signing someone in is acting as them: only as someone holding no more than the asker.
          await users.assertSignOnAllowed(OrgID, EmailAddress, actor);
          if (GroupID) await groups.assertJoinable(GroupID, actor);
          const grant = { org_id: OrgID, email_address: EmailAddress, group_id: GroupID ?? '' };
          return nonces.issue({ ...grant, makes_admin: actor.is_admin && !GroupID });
        },
      },
      'sso.consume': {
        params: usersActionParams['sso.consume'],
        async handler(ctx: Context<{ nonce: string }>): Promise<LoginResult> {
          const grant = await nonces.consume(ctx.params.nonce);
          const known = await users.findByEmail(grant.org_id, grant.email_address);
          const user = known ?? (await users.createSignedOn(grant)).user;
          if (!user.active) throw UsersErrors.inactive();
          const { session, expiresAt } = await sessions.open(user.id);
          return { session, expires_at: new Date(expiresAt).toISOString(), user };
        },
      },
      'groups.list': {
        params: usersActionParams['groups.list'],
        handler: (ctx: Context<Scoped>) => groups.list(ctx.params.org_scope, ctx.params.page ?? 1, pageSize),
      },
      'groups.get': {
        params: usersActionParams['groups.get'],
        handler: (ctx: Context<UsersGetParams>) => groups.get(ctx.params.id, ctx.params.org_scope),
      },
      'groups.create': {
        params: usersActionParams['groups.create'],
        handler: (ctx: Context<GroupsCreateParams>) =>
          groups.create(ctx.params.group, ctx.params.org_scope, ctx.params.actor),
      },
      'groups.update': {
        params: usersActionParams['groups.update'],
        handler: (ctx: Context<GroupsUpdateParams>) => {
          const { id, group, org_scope, actor } = ctx.params;
          return groups.update(id, group, org_scope, actor);
        },
      },
      'groups.remove': {
        params: usersActionParams['groups.remove'],
        handler: (ctx: Context<UsersChangeParams>) =>
          groups.remove(ctx.params.id, ctx.params.org_scope, ctx.params.actor),
      },
    } satisfies ServiceActions<'users'>,
    events: {
      [ORGS_DELETED]: {
        params: orgsDeletedEventParams,
        async handler(ctx: Context<OrgsDeletedEvent>) {
          const removed = await users.removeOrganisation(ctx.params.org_id);
          await groups.removeOrganisation(ctx.params.org_id);
          this.logger.info(`organisation ${ctx.params.org_id} deleted: removed its ${removed} users and their groups`);
        },
      },
    },
    async started() {
      const db = runtime.database();
      await migrate(db, 'users', USERS_MIGRATIONS);
      orgExists = (orgId: string) =>
        callAction(this.broker, 'orgs.get', { id: orgId }).then(
          () => true,
          (err: unknown) => (isGwError(err, 'GW_ERR_ORGS_NOT_FOUND') ? false : Promise.reject(err)),
        );
      groups = new GroupDirectory(db);
      users = new UserDirectory(db, { orgExists, groups });
      sessions = new LoginSessions(db);
      nonces = new SsoNonces(db);
    },
  };
}
