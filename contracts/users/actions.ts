/** `users.*` actions and the dashboard user object (SPEC.md, "User"). */

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
  /** dashboard API credential, sent in `Authorization` */
  access_key: string;
  user_permissions: Record<string, PermissionLevel>;
  group_id: string;
  created_at: string;
}

/** Who is calling the dashboard REST API, as resolved from their access key. */
export interface Caller {
  user_id: string;
  org_id: string;
  email_address: string;
  user_permissions: Record<string, PermissionLevel>;
}

export const userRule = {
  type: 'object',
  props: {
    first_name: { type: 'string', optional: true },
    last_name: { type: 'string', optional: true },
    email_address: { type: 'email', normalize: true },
    password: { type: 'string', optional: true },
    org_id: { type: 'string', empty: false },
    active: { type: 'boolean', optional: true },
    group_id: { type: 'string', optional: true },
    user_permissions: {
      type: 'record',
      optional: true,
      key: { type: 'string', empty: false },
      value: { type: 'enum', values: ['read', 'write', 'admin', 'deny'] },
    },
  },
} as const;

export const usersActionParams = {
  create: { user: userRule },
  get: { id: { type: 'string', empty: false }, org_scope: { type: 'string', optional: true } },
  authenticate: { access_key: { type: 'string', empty: false } },
};

export interface UserInput {
  first_name?: string;
  last_name?: string;
  email_address: string;
  password?: string;
  org_id: string;
  active?: boolean;
  group_id?: string;
  user_permissions?: Record<string, PermissionLevel>;
}

export interface UsersCreateParams {
  user: UserInput;
}
export interface UsersGetParams {
  id: string;
  org_scope?: string;
}
export interface UsersAuthenticateParams {
  access_key: string;
}
