/** `users.*` actions and the dashboard user object (docs/users-and-organisations.md#users). */

export type PermissionLevel = 'read' | 'write' | 'admin' | 'deny';

export interface User {
  id: string;
  org_id: string;
  first_name: string;
  last_name: string;
  email_address: string;
  /** write only: always returned empty */
  password: '';
  active: boolean;
  /**
   * dashboard API credential, sent in `Authorization`. Stored only as a hash, so it is in the
   * answer of `users.create` and `users.resetKey` (to whoever made it) and `''` everywhere else.
   */
  access_key: string;
  user_permissions: Record<string, PermissionLevel>;
  group_id: string;
  created_at: string;
}

/** Who is calling the dashboard REST API, as resolved from their access key or login session. */
export interface Caller {
  user_id: string;
  org_id: string;
  email_address: string;
  /** the user's own permissions over their group's */
  user_permissions: Record<string, PermissionLevel>;
  /** holds `IsAdmin: admin` (its own or its group's) */
  is_admin: boolean;
  /** the user's group (its permissions are merged above), when it has an active one */
  group_id?: string;
  group_name?: string;
}

/**
 * On whose behalf users and groups are changed: what the actor holds bounds what it may grant
 * and whom it may change (services/users). A dashboard caller acts as itself.
 */
export interface Actor {
  is_admin: boolean;
  user_permissions: Record<string, PermissionLevel>;
}

/** The admin API (the `admin-auth` secret) acts as an administrator. */
export const ADMINISTRATOR: Actor = { is_admin: true, user_permissions: {} };

export interface UserGroup {
  id: string;
  org_id: string;
  name: string;
  description: string;
  active: boolean;
  user_permissions: Record<string, PermissionLevel>;
}

const permissionsRule = {
  type: 'record',
  optional: true,
  key: { type: 'string', empty: false },
  value: { type: 'enum', values: ['read', 'write', 'admin', 'deny'] },
};

const actorRule = {
  type: 'object',
  props: { is_admin: 'boolean', user_permissions: { ...permissionsRule, optional: false } },
} as const;

export const groupRule = {
  type: 'object',
  props: {
    name: { type: 'string', empty: false, trim: true },
    description: { type: 'string', optional: true },
    active: { type: 'boolean', optional: true },
    org_id: { type: 'string', optional: true },
    user_permissions: permissionsRule,
  },
} as const;

export const userRule = {
  type: 'object',
  props: {
    first_name: { type: 'string', optional: true },
    last_name: { type: 'string', optional: true },
    email_address: { type: 'email', normalize: true },
    password: { type: 'string', optional: true },
    org_id: { type: 'string', optional: true },
    active: { type: 'boolean', optional: true },
    group_id: { type: 'string', optional: true },
    user_permissions: permissionsRule,
  },
} as const;

/** An update: every field optional (what is left out keeps its value). */
const userUpdateRule = {
  ...userRule,
  props: { ...userRule.props, email_address: { type: 'email', normalize: true, optional: true } },
};

const id = { type: 'string', empty: false };
const scope = { type: 'string', optional: true };
const page = { type: 'number', integer: true, optional: true };

export const usersActionParams = {
  create: { user: userRule, org_scope: scope, actor: actorRule },
  get: { id, org_scope: scope },
  list: { org_scope: scope, page },
  update: { id, user: userUpdateRule, org_scope: scope, actor: actorRule },
  remove: { id, org_scope: scope, actor: actorRule },
  resetPassword: {
    id,
    org_scope: scope,
    current_password: { type: 'string', optional: true },
    new_password: { type: 'string', min: 1 },
    actor: actorRule,
  },
  resetKey: { id, org_scope: scope, actor: actorRule },
  setResetPasswords: { id, allowed: 'boolean' },
  authenticate: {
    access_key_hash: { type: 'string', optional: true, pattern: /^[0-9a-f]{64}$/ },
    session: { type: 'string', optional: true },
  },
  login: { email_address: { type: 'string', empty: false }, password: { type: 'string' } },
  logout: { session: { type: 'string', empty: false } },
  'sso.create': {
    ForSection: { type: 'enum', values: ['dashboard', 'portal'] },
    OrgID: { type: 'string', empty: false },
    EmailAddress: { type: 'email', normalize: true },
    GroupID: { type: 'string', optional: true },
    org_scope: scope,
    actor: actorRule,
  },
  'sso.consume': { nonce: { type: 'string', empty: false } },
  'groups.list': { org_scope: scope, page },
  'groups.get': { id, org_scope: scope },
  'groups.create': { group: groupRule, org_scope: scope, actor: actorRule },
  'groups.update': { id, group: groupRule, org_scope: scope, actor: actorRule },
  'groups.remove': { id, org_scope: scope, actor: actorRule },
};

export interface UserInput {
  first_name?: string;
  last_name?: string;
  email_address: string;
  password?: string;
  org_id?: string;
  active?: boolean;
  group_id?: string;
  user_permissions?: Record<string, PermissionLevel>;
}

export interface UsersCreateParams {
  user: UserInput;
  org_scope?: string;
  /**
   * may grant only what it holds; an administrator creating a user without permissions or
   * group makes an administrator
   */
  actor: Actor;
}
export interface UsersUpdateParams {
  id: string;
  user: Partial<UserInput>;
  org_scope?: string;
  actor: Actor;
}
export interface UsersResetPasswordParams {
  id: string;
  org_scope?: string;
  current_password?: string;
  new_password: string;
  actor: Actor;
}
/** A change to one user (removal, new access key): refused when the user holds more than the actor. */
export interface UsersChangeParams {
  id: string;
  org_scope?: string;
  actor: Actor;
}
export interface UsersListResult {
  users: User[];
  pages: number;
}
export interface GroupsListResult {
  groups: UserGroup[];
  pages: number;
}
/**
 * A dashboard login: the session token is the `gw-session` cookie's value. `Authorization` takes
 * access keys only (services/api/routes/dashboard.ts).
 */
export interface LoginResult {
  session: string;
  expires_at: string;
  user: User;
}
export interface UsersGetParams {
  id: string;
  org_scope?: string;
}
export interface UsersAuthenticateParams {
  /** lib/secret-hash.ts `hashSecret` of the presented access key: the key itself never crosses the bus */
  access_key_hash?: string;
  session?: string;
}

export interface SsoCreateParams {
  ForSection: 'dashboard' | 'portal';
  OrgID: string;
  EmailAddress: string;
  GroupID?: string;
  org_scope?: string;
  /** may sign in only users (and into groups) holding no more than it does */
  actor: Actor;
}

export interface UsersListParams {
  org_scope?: string;
  /** page number; 0 or lower = all */
  page?: number;
}
export interface UsersSetResetPasswordsParams {
  id: string;
  allowed: boolean;
}
export interface UsersLoginParams {
  email_address: string;
  password: string;
}
export interface UsersLogoutParams {
  /** the login session's token */
  session: string;
}
export interface SsoConsumeParams {
  nonce: string;
}
/** A user group as clients send it: every field but the name optional. */
export type UserGroupInput = Partial<Omit<UserGroup, 'id'>> & { name: string };
export interface GroupsCreateParams {
  group: UserGroupInput;
  org_scope?: string;
  /** may give a group only permissions it holds, and change only groups holding no more than it does */
  actor: Actor;
}
export interface GroupsUpdateParams extends GroupsCreateParams {
  id: string;
}

/** The `users.*` actions, user groups included: params and result of each (see contracts/actions.ts). */
export interface UsersActions {
  'users.list': { params: UsersListParams; result: UsersListResult };
  'users.get': { params: UsersGetParams; result: User };
  /** the answer carries the new user's access key, once */
  'users.create': { params: UsersCreateParams; result: User };
  'users.update': { params: UsersUpdateParams; result: User };
  'users.remove': { params: UsersChangeParams; result: void };
  'users.resetPassword': { params: UsersResetPasswordParams; result: void };
  /** the answer carries the new access key, once */
  'users.resetKey': { params: UsersChangeParams; result: User };
  'users.setResetPasswords': { params: UsersSetResetPasswordsParams; result: User };
  'users.authenticate': { params: UsersAuthenticateParams; result: Caller };
  'users.login': { params: UsersLoginParams; result: LoginResult };
  'users.logout': { params: UsersLogoutParams; result: void };
  /** the nonce */
  'users.sso.create': { params: SsoCreateParams; result: string };
  'users.sso.consume': { params: SsoConsumeParams; result: LoginResult };
  'users.groups.list': { params: UsersListParams; result: GroupsListResult };
  'users.groups.get': { params: UsersGetParams; result: UserGroup };
  'users.groups.create': { params: GroupsCreateParams; result: UserGroup };
  'users.groups.update': { params: GroupsUpdateParams; result: UserGroup };
  'users.groups.remove': { params: UsersChangeParams; result: void };
}
