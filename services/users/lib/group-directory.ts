import type { Knex } from 'knex';
import { inOrg } from '../../../lib/store/org-scope';
import type { Actor, GroupsListResult, PermissionLevel, UserGroup } from '../../../contracts/users/actions';
import { rightBeyond } from '../../../lib/permissions';
import { newRecordId } from '../../../lib/ids';
import { paginate } from '../../../lib/store/paginate';
import { parseJson } from '../../../lib/store/migrate';
import { UsersErrors } from '../errors';
import { assertGroupFits } from './column-limits';

interface GroupRow {
  id: string;
  org_id: string;
  name: string;
  description: string;
  active: number | boolean;
  user_permissions: string;
  created_at: number | string;
  updated_at: number | string;
}

type GroupInput = Partial<Omit<UserGroup, 'id'>> & { name: string };

/**
 * User groups: their members inherit the group's permissions. A group may hold only what the
 * actor holds, and only an actor holding all a group's permissions may change or remove it.
 */
export class GroupDirectory {
  constructor(
    private readonly db: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  async list(orgScope: string | undefined, page: number, pageSize: number): Promise<GroupsListResult> {
    const base = this.db('user_groups').modify(inOrg(orgScope));
    const { rows, pages } = await paginate<GroupRow>(base, page, pageSize);
    return { groups: rows.map(fromRow), pages };
  }

  async get(id: string, orgScope?: string): Promise<UserGroup> {
    return fromRow(await this.row(id, orgScope));
  }

  async create(input: GroupInput, orgScope: string | undefined, actor: Actor): Promise<UserGroup> {
    const orgId = orgScope ?? input.org_id;
    if (!orgId) throw UsersErrors.orgRequired();
    if (orgScope !== undefined && input.org_id && input.org_id !== orgScope) throw UsersErrors.wrongOrg(input.org_id);
    assertGrantable(input.user_permissions ?? {}, actor);
    const now = this.now();
    const row: GroupRow = {
      id: newRecordId(),
      org_id: orgId,
      name: input.name,
      description: input.description ?? '',
      active: input.active ?? true,
      user_permissions: JSON.stringify(input.user_permissions ?? {}),
      created_at: now,
      updated_at: now,
    };
    assertGroupFits(row);
    await this.db('user_groups').insert(row);
    return fromRow(row);
  }

  async update(id: string, input: GroupInput, orgScope: string | undefined, actor: Actor): Promise<UserGroup> {
    const current = await this.changeableRow(id, orgScope, actor);
    if (input.org_id && input.org_id !== current.org_id) throw UsersErrors.wrongOrg(input.org_id);
    if (input.user_permissions) assertGrantable(input.user_permissions, actor);
    const next: GroupRow = {
      ...current,
      name: input.name,
      description: input.description ?? current.description,
      active: input.active ?? Boolean(current.active),
      user_permissions: input.user_permissions ? JSON.stringify(input.user_permissions) : current.user_permissions,
      updated_at: this.now(),
    };
    assertGroupFits(next);
    await this.db('user_groups').where('id', id).update(next);
    return fromRow(next);
  }

  /** Members of a deleted group keep their own permissions only. */
  async remove(id: string, orgScope: string | undefined, actor: Actor): Promise<void> {
    await this.changeableRow(id, orgScope, actor);
    await this.db.transaction(async (trx) => {
      await trx('users').where('group_id', id).update({ group_id: '' });
      await trx('user_groups').where('id', id).delete();
    });
  }

  async removeOrganisation(orgId: string): Promise<void> {
    await this.db('user_groups').where('org_id', orgId).delete();
  }

  /** An inactive or missing group grants nothing. */
  async permissionsOf(id: string): Promise<Record<string, PermissionLevel> | undefined> {
    return (await this.membershipOf(id))?.permissions;
  }

  /** An active group's name and permissions, or undefined. */
  async membershipOf(id: string): Promise<{ name: string; permissions: Record<string, PermissionLevel> } | undefined> {
    const row = await this.db<GroupRow>('user_groups').where('id', id).first();
    return row && row.active ? { name: row.name, permissions: permissionsOf(row) } : undefined;
  }

  /** Refuses (403) signing people in to a group that holds more than `actor`. */
  async assertJoinable(id: string, actor: Actor): Promise<void> {
    const row = await this.db<GroupRow>('user_groups').where('id', id).first();
    const beyond = row ? rightBeyond(permissionsOf(row), actor) : undefined;
    if (beyond) throw UsersErrors.grantBeyondOwn(beyond);
  }

  async requireInOrg(id: string, orgId: string): Promise<void> {
    const row = await this.db<GroupRow>('user_groups').where({ id, org_id: orgId }).first();
    if (!row) throw UsersErrors.unknownGroup(id);
  }

  private async changeableRow(id: string, orgScope: string | undefined, actor: Actor): Promise<GroupRow> {
    const row = await this.row(id, orgScope);
    const beyond = rightBeyond(permissionsOf(row), actor);
    if (beyond) throw UsersErrors.outranks('user group', beyond);
    return row;
  }

  private async row(id: string, orgScope: string | undefined): Promise<GroupRow> {
    const row = await this.db<GroupRow>('user_groups').where('id', id).modify(inOrg(orgScope)).first();
    if (!row) throw UsersErrors.groupNotFound(id);
    return row;
  }
}

function assertGrantable(permissions: Record<string, PermissionLevel>, actor: Actor): void {
  const beyond = rightBeyond(permissions, actor);
  if (beyond) throw UsersErrors.grantBeyondOwn(beyond);
}

function permissionsOf(row: GroupRow): Record<string, PermissionLevel> {
  return parseJson<Record<string, PermissionLevel>>(row.user_permissions, {});
}

function fromRow(row: GroupRow): UserGroup {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    description: row.description,
    active: Boolean(row.active),
    user_permissions: permissionsOf(row),
  };
}
