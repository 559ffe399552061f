import type { Caller, PermissionLevel } from '../contracts/users/actions';

const RANK: Record<PermissionLevel, number> = { deny: 0, read: 1, write: 2, admin: 3 };

/** A user's own permissions win over their group's. */
export function effectivePermissions(own: Record<string, PermissionLevel>, group: Record<string, PermissionLevel> | undefined): Record<string, PermissionLevel> {
  return { ...(group ?? {}), ...own };
}

/**
 * `IsAdmin: admin` grants everything. As in the reference dashboard, a user with no
 * permissions at all and no group is an administrator (that is how the first user of an
 * organisation is made).
 */
export function isAdmin(permissions: Record<string, PermissionLevel>, inGroup: boolean): boolean {
  return permissions.IsAdmin === 'admin' || (!inGroup && Object.keys(permissions).length === 0);
}

/** Whether the caller holds `level` (or more) of `permission`; `deny` never does. */
export function allows(caller: Pick<Caller, 'is_admin' | 'user_permissions'>, permission: string, level: Exclude<PermissionLevel, 'deny'>): boolean {
  if (caller.is_admin) return true;
  const held = caller.user_permissions[permission];
  return held !== undefined && RANK[held] >= RANK[level];
}
