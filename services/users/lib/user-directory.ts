import type { Knex } from 'knex';
import { inOrg } from '../../../lib/store/org-scope';
import type {
  Actor,
  Caller,
  PermissionLevel,
  User,
  UserInput,
  UsersListResult,
  UsersResetPasswordParams,
} from '../../../contracts/users/actions';
import { newPublicId, newRecordId } from '../../../lib/ids';
import { hashPassword, verifyPassword } from '../../../lib/password';
import { hashSecret } from '../../../lib/secret-hash';
import { isUniqueViolation } from '../../../lib/store/database';
import { paginate } from '../../../lib/store/paginate';
import { parseJson } from '../../../lib/store/migrate';
import { UsersErrors } from '../errors';
import { assertUserFits } from './column-limits';
import type { GroupDirectory } from './group-directory';
import type { SsoGrant } from './sso-nonces';
import { ADMIN_PERMISSION, effectivePermissions, isAdmin, rightBeyond } from '../../../lib/permissions';

type Permissions = Record<string, PermissionLevel>;

interface UserRow {
  id: string;
  org_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  active: number | boolean;
  /** SHA-256 of the access key; the key itself is known only to the user (migration 004) */
  access_key_hash: string;
  group_id: string;
  user_permissions: string;
  created_at: number | string;
  updated_at: number | string;
}

/** A user just given an access key: the only moment the key is known, to hand to the caller once. */
export interface WithNewKey {
  user: User;
  accessKey: string;
}

export interface UserDirectoryDeps {
  orgExists(orgId: string): Promise<boolean>;
  groups: GroupDirectory;
  now?: () => number;
}

/**
 * Dashboard users and their API credentials. Passwords are kept only as a slow salted hash and
 * are never returned. Access keys are kept only as a hash: the key is handed out once, when it
 * is made (`create`, `resetKey`), and every user object read back carries `access_key: ''`. A
 * renewed key stops working at once.
 */
export class UserDirectory {
  private readonly now: () => number;

  constructor(
    private readonly db: Knex,
    private readonly deps: UserDirectoryDeps,
  ) {
    this.now = deps.now ?? Date.now;
  }

  async list(orgScope: string | undefined, page: number, pageSize: number): Promise<UsersListResult> {
    const base = this.db('users').modify(inOrg(orgScope));
    const { rows, pages } = await paginate<UserRow>(base, page, pageSize);
    return { users: rows.map(fromRow), pages };
  }

  /**
   * A user with what `actor` may grant. An administrator creating a user with no permissions
   * and no group makes an administrator (the reference dashboard's convention), stored as
   * `IsAdmin: admin`; anyone else creating one makes a user with no rights.
   */
  async create(input: UserInput, orgScope: string | undefined, actor: Actor): Promise<WithNewKey> {
    const permissions = input.user_permissions ?? {};
    const adminByOmission = actor.is_admin && Object.keys(permissions).length === 0 && !input.group_id;
    const user_permissions: Permissions = adminByOmission ? { [ADMIN_PERMISSION]: 'admin' } : permissions;
    const orgId = ownOrg(orgScope, input.org_id);
    if (!orgId) throw UsersErrors.orgRequired();
    if (input.group_id) await this.deps.groups.requireInOrg(input.group_id, orgId);
    await this.assertGrantable(user_permissions, input.group_id ?? '', actor);
    return this.insert({ ...input, user_permissions }, orgId);
  }

  /**
   * The user a single sign-on nonce names, made when it signs in for the first time: an
   * administrator when an administrator asked for the nonce without a group, else with the
   * group's permissions only (checked against the asker when the nonce was made).
   */
  async createSignedOn(grant: SsoGrant): Promise<WithNewKey> {
    const user_permissions: Permissions = grant.makes_admin ? { [ADMIN_PERMISSION]: 'admin' } : {};
    const input = { email_address: grant.email_address, group_id: grant.group_id || undefined, user_permissions };
    return this.insert(input, grant.org_id);
  }

  private async insert(input: UserInput, orgId: string): Promise<WithNewKey> {
    assertUserFits({ ...input, org_id: orgId, user_permissions: JSON.stringify(input.user_permissions ?? {}) });
    if (!(await this.deps.orgExists(orgId))) throw UsersErrors.unknownOrg(orgId);
    if (input.group_id) await this.deps.groups.requireInOrg(input.group_id, orgId);
    const now = this.now();
    const accessKey = newPublicId();
    const row: UserRow = {
      id: newRecordId(),
      org_id: orgId,
      email_address: input.email_address,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      password_hash: input.password ? await hashPassword(input.password) : '',
      active: input.active ?? true,
      access_key_hash: hashSecret(accessKey),
      group_id: input.group_id ?? '',
      user_permissions: JSON.stringify(input.user_permissions ?? {}),
      created_at: now,
      updated_at: now,
    };
    await this.write(() => this.db('users').insert(row), input.email_address);
    return { user: fromRow(row), accessKey };
  }

  async get(id: string, orgScope?: string): Promise<User> {
    return fromRow(await this.row(id, orgScope));
  }

  /**
   * Changes what the input names; the password is changed through `resetPassword` only. The
   * actor may change only a user holding no more than itself, and grant only what it holds
   * (its own permissions, and the group's it puts the user in).
   */
  async update(id: string, input: Partial<UserInput>, orgScope: string | undefined, actor: Actor): Promise<User> {
    const current = await this.changeableRow(id, orgScope, actor);
    if (input.org_id !== undefined && input.org_id !== '' && input.org_id !== current.org_id)
      throw UsersErrors.wrongOrg(input.org_id);
    if (input.group_id) await this.deps.groups.requireInOrg(input.group_id, current.org_id);
    if (input.user_permissions === undefined && input.group_id === undefined) return this.apply(current, input);
    const groupId = input.group_id ?? current.group_id;
    let permissions = input.user_permissions ?? parseJson<Permissions>(current.user_permissions, {});
    // As at creation: an administrator clearing a groupless user's permissions makes an administrator.
    const cleared = input.user_permissions !== undefined && Object.keys(permissions).length === 0;
    if (actor.is_admin && cleared && !groupId) permissions = { [ADMIN_PERMISSION]: 'admin' };
    await this.assertGrantable(permissions, groupId, actor);
    return this.apply(current, { ...input, user_permissions: permissions });
  }

  private async apply(current: UserRow, input: Partial<UserInput>): Promise<User> {
    const id = current.id;
    const next: UserRow = {
      ...current,
      email_address: input.email_address ?? current.email_address,
      first_name: input.first_name ?? current.first_name,
      last_name: input.last_name ?? current.last_name,
      active: input.active ?? Boolean(current.active),
      group_id: input.group_id ?? current.group_id,
      user_permissions: input.user_permissions ? JSON.stringify(input.user_permissions) : current.user_permissions,
      updated_at: this.now(),
    };
    assertUserFits(next);
    await this.write(() => this.db('users').where('id', id).update(next), next.email_address);
    if (!next.active) await this.db('user_sessions').where('user_id', id).delete();
    return fromRow(next);
  }

  async remove(id: string, orgScope: string | undefined, actor: Actor): Promise<void> {
    await this.changeableRow(id, orgScope, actor);
    await this.db.transaction(async (trx) => {
      await trx('user_sessions').where('user_id', id).delete();
      await trx('users').where('id', id).delete();
    });
  }

  /** Every user (and session) of an organisation that is being deleted. */
  async removeOrganisation(orgId: string): Promise<number> {
    let removed = 0;
    await this.db.transaction(async (trx) => {
      await trx('user_sessions').whereIn('user_id', trx('users').select('id').where('org_id', orgId)).delete();
      removed = await trx('users').where('org_id', orgId).delete();
    });
    return removed;
  }

  /** `current_password` is needed unless the stored password is blank. Ends the user's login sessions. */
  async resetPassword(params: UsersResetPasswordParams): Promise<void> {
    const current = await this.changeableRow(params.id, params.org_scope, params.actor);
    if (
      current.password_hash !== '' &&
      !(params.current_password && (await verifyPassword(params.current_password, current.password_hash)))
    ) {
      throw UsersErrors.wrongPassword();
    }
    await this.db('users')
      .where('id', current.id)
      .update({ password_hash: await hashPassword(params.new_password), updated_at: this.now() });
    await this.db('user_sessions').where('user_id', current.id).delete();
  }

  /** A new access key; the old one stops working at once. */
  async resetKey(id: string, orgScope: string | undefined, actor: Actor): Promise<WithNewKey> {
    const current = await this.changeableRow(id, orgScope, actor);
    const accessKey = newPublicId();
    const next = { ...current, access_key_hash: hashSecret(accessKey), updated_at: this.now() };
    await this.db('users')
      .where('id', id)
      .update({ access_key_hash: next.access_key_hash, updated_at: next.updated_at });
    return { user: fromRow(next), accessKey };
  }

  /** The admin API's allow/disallow_reset_passwords: the user's `ResetPassword` permission. */
  async setResetPasswords(id: string, allowed: boolean): Promise<User> {
    const current = await this.row(id, undefined);
    const permissions = parseJson<Record<string, PermissionLevel>>(current.user_permissions, {});
    if (allowed) permissions.ResetPassword = 'admin';
    else delete permissions.ResetPassword;
    return this.apply(current, { user_permissions: permissions });
  }

  /**
   * Refuses (403) a sign-on nonce for a user who holds more than `actor`; a person who is not
   * a user yet gets the nonce's group only (checked by the caller) or, from an administrator,
   * administrator rights.
   */
  async assertSignOnAllowed(orgId: string, email: string, actor: Actor): Promise<void> {
    const row = await this.db<UserRow>('users').where({ org_id: orgId, email_address: email.toLowerCase() }).first();
    if (row) await this.assertNotOutranked(row, actor);
  }

  async findByEmail(orgId: string, email: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ org_id: orgId, email_address: email.toLowerCase() }).first();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Looked up by the key's hash, so neither the query nor a failed query's logged SQL carries
   * the key, and no comparison of secrets happens here whose timing could leak it.
   */
  /** The caller whose access key hashes (lib/secret-hash.ts) to `accessKeyHash`. */
  async callerByAccessKeyHash(accessKeyHash: string): Promise<Caller> {
    const row = await this.db<UserRow>('users').where('access_key_hash', accessKeyHash).first();
    if (!row) throw UsersErrors.badAccessKey();
    return this.caller(row);
  }

  async callerById(userId: string): Promise<Caller> {
    return this.caller(await this.row(userId, undefined));
  }

  /** Email and password; refuses inactive users. */
  async checkLogin(email: string, password: string): Promise<User> {
    const rows = await this.db<UserRow>('users').where('email_address', email.toLowerCase());
    for (const row of rows) {
      if (row.password_hash !== '' && (await verifyPassword(password, row.password_hash))) {
        if (!row.active) throw UsersErrors.inactive();
        return fromRow(row);
      }
    }
    throw UsersErrors.badLogin();
  }

  private async caller(row: UserRow): Promise<Caller> {
    if (!row.active) throw UsersErrors.inactive();
    const own = parseJson<Record<string, PermissionLevel>>(row.user_permissions, {});
    const group = row.group_id ? await this.deps.groups.membershipOf(row.group_id) : undefined;
    const permissions = effectivePermissions(own, group?.permissions);
    const caller: Caller = {
      user_id: row.id,
      org_id: row.org_id,
      email_address: row.email_address,
      user_permissions: permissions,
      is_admin: isAdmin(permissions),
    };
    return group ? { ...caller, group_id: row.group_id, group_name: group.name } : caller;
  }

  /** The user, when `actor` holds at least what it holds (its own permissions and its active group's). */
  private async changeableRow(id: string, orgScope: string | undefined, actor: Actor): Promise<UserRow> {
    const row = await this.row(id, orgScope);
    await this.assertNotOutranked(row, actor);
    return row;
  }

  private async assertNotOutranked(row: UserRow, actor: Actor): Promise<void> {
    if (actor.is_admin) return;
    const own = parseJson<Permissions>(row.user_permissions, {});
    const beyond = rightBeyond(await this.rightsOf(own, row.group_id), actor);
    if (beyond) throw UsersErrors.outranks('user', beyond);
  }

  /** Refuses (403) permissions, with the group's, that `actor` does not hold itself. */
  private async assertGrantable(own: Permissions, groupId: string, actor: Actor): Promise<void> {
    if (actor.is_admin) return;
    const beyond = rightBeyond(await this.rightsOf(own, groupId), actor);
    if (beyond) throw UsersErrors.grantBeyondOwn(beyond);
  }

  private async rightsOf(own: Permissions, groupId: string): Promise<Permissions> {
    return effectivePermissions(own, groupId ? await this.deps.groups.permissionsOf(groupId) : undefined);
  }

  private async row(id: string, orgScope: string | undefined): Promise<UserRow> {
    const row = await this.db<UserRow>('users').where('id', id).modify(inOrg(orgScope)).first();
    if (!row) throw UsersErrors.notFound(id);
    return row;
  }

  private async write(work: () => Promise<unknown>, email: string): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw UsersErrors.emailTaken(email);
      throw err;
    }
  }
}

function ownOrg(scope: string | undefined, requested: string | undefined): string | undefined {
  if (scope === undefined) return requested;
  if (requested !== undefined && requested !== '' && requested !== scope) throw UsersErrors.wrongOrg(requested);
  return scope;
}

function fromRow(row: UserRow): User {
  return {
    id: row.id,
    org_id: row.org_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email_address: row.email_address,
    password: '',
    active: Boolean(row.active),
    access_key: '',
    user_permissions: parseJson<Record<string, PermissionLevel>>(row.user_permissions, {}),
    group_id: row.group_id,
    created_at: new Date(Number(row.created_at)).toISOString(),
  };
}

/** What `users.create` and `users.resetKey` answer: the user, carrying the new key this once. */
export function revealNewKey({ user, accessKey }: WithNewKey): User {
  return { ...user, access_key: accessKey };
}
