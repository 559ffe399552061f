import type { Knex } from 'knex';
import type { Caller, PermissionLevel, User, UserInput } from '../../../contracts/users/actions';
import { newPublicId, newRecordId } from '../../../lib/ids';
import { hashPassword } from '../../../lib/password';
import { isUniqueViolation } from '../../../lib/store/database';
import { parseJson } from '../../../lib/store/migrate';
import { UsersErrors } from '../errors';

interface UserRow {
  id: string;
  org_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  active: number | boolean;
  access_key: string;
  group_id: string;
  user_permissions: string;
  created_at: number | string;
  updated_at: number | string;
}

/** Dashboard users and their API credentials. Passwords are kept only as a slow salted hash. */
export class UserDirectory {
  constructor(
    private readonly db: Knex,
    private readonly orgExists: (orgId: string) => Promise<boolean>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: UserInput): Promise<User> {
    if (!(await this.orgExists(input.org_id))) throw UsersErrors.unknownOrg(input.org_id);
    const now = this.now();
    const row: UserRow = {
      id: newRecordId(),
      org_id: input.org_id,
      email_address: input.email_address,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      password_hash: input.password ? await hashPassword(input.password) : '',
      active: input.active ?? true,
      access_key: newPublicId(),
      group_id: input.group_id ?? '',
      user_permissions: JSON.stringify(input.user_permissions ?? {}),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db('users').insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw UsersErrors.emailTaken(input.email_address);
      throw err;
    }
    return fromRow(row);
  }

  async get(id: string, orgScope?: string): Promise<User> {
    const row = await this.db<UserRow>('users')
      .where('id', id)
      .modify((q) => {
        if (orgScope !== undefined) q.where('org_id', orgScope);
      })
      .first();
    if (!row) throw UsersErrors.notFound(id);
    return fromRow(row);
  }

  async authenticate(accessKey: string): Promise<Caller> {
    const row = await this.db<UserRow>('users').where('access_key', accessKey).first();
    if (!row) throw UsersErrors.badAccessKey();
    if (!row.active) throw UsersErrors.inactive();
    const user = fromRow(row);
    return { user_id: user.id, org_id: user.org_id, email_address: user.email_address, user_permissions: user.user_permissions };
  }
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
    access_key: row.access_key,
    user_permissions: parseJson<Record<string, PermissionLevel>>(row.user_permissions, {}),
    group_id: row.group_id,
    created_at: new Date(Number(row.created_at)).toISOString(),
  };
}
