import type { Actor, Caller, PermissionLevel } from '../contracts/users/actions';

const RANK: Record<PermissionLevel, number> = { deny: 0, read: 1, write: 2, admin: 3 };

/** The permission that makes an administrator, at level `admin`. */
export const ADMIN_PERMISSION = 'IsAdmin';

/** A user's own permissions win over their group's. */
export function effectivePermissions(
  own: Record<string, PermissionLevel>,
  group: Record<string, PermissionLevel> | undefined,
): Record<string, PermissionLevel> {
  return { ...(group ?? {}), ...own };
}

/**
 * `IsAdmin: admin` grants everything. Empty permissions grant nothing: the reference
 * dashboard's "no permissions means administrator" is stored as an explicit `IsAdmin` when an
 * administrator creates such a user (services/users), so nobody else can make one by omission.
 */
export function isAdmin(permissions: Record<string, PermissionLevel>): boolean {
  return permissions[ADMIN_PERMISSION] === 'admin';
}

/** Whether the caller holds `level` (or more) of `permission`; `deny` never does. */
export function allows(
  caller: Pick<Caller, 'is_admin' | 'user_permissions'>,
  permission: string,
  level: Exclude<PermissionLevel, 'deny'>,
): boolean {
  if (caller.is_admin) return true;
  const held = caller.user_permissions[permission];
  return held !== undefined && RANK[held] >= RANK[level];
}

/**
 * The first right in `permissions` that `holder` does not hold at that level (`IsAdmin` for an
 * administrator's), or undefined when it holds them all: what may not be granted, or whom may
 * not be changed, by `holder`. An administrator holds everything.
 */
export function rightBeyond(permissions: Record<string, PermissionLevel>, holder: Actor): string | undefined {
  if (holder.is_admin) return undefined;
  if (isAdmin(permissions)) return ADMIN_PERMISSION;
  for (const [name, level] of Object.entries(permissions)) {
    if (level !== 'deny' && !allows(holder, name, level)) return name;
  }
  return undefined;
}
