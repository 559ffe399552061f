import type { Knex } from 'knex';
import type { Organisation, OrganisationInput, OrgsListParams, OrgsListResult } from '../../../contracts/orgs/actions';
import { newRecordId } from '../../../lib/ids';
import { isUniqueViolation } from '../../../lib/store/database';
import { paginate } from '../../../lib/store/paginate';
import { parseJson } from '../../../lib/store/migrate';
import { OrgsErrors } from '../errors';
import { assertOrgFits } from './column-limits';

interface OrgRow {
  id: string;
  owner_name: string;
  owner_slug: string;
  document: string;
  created_at: number | string;
  updated_at: number | string;
}

/** Organisations: the `organisations` table and the defaults of the organisation object. */
export class OrgDirectory {
  constructor(
    private readonly db: Knex,
    private readonly pageSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  async list(params: OrgsListParams): Promise<OrgsListResult> {
    const { rows, pages } = await paginate<OrgRow>(this.db('organisations'), params.page ?? 1, this.pageSize);
    return { organisations: rows.map(fromRow), pages };
  }

  async get(id: string): Promise<Organisation> {
    const row = await this.db<OrgRow>('organisations').where('id', id).first();
    if (!row) throw OrgsErrors.notFound(id);
    return fromRow(row);
  }

  /** The organisation, or undefined when it has no record. */
  async find(id: string): Promise<Organisation | undefined> {
    const row = await this.db<OrgRow>('organisations').where('id', id).first();
    return row ? fromRow(row) : undefined;
  }

  async create(input: OrganisationInput): Promise<Organisation> {
    const organisation = withDefaults(input, input.id ?? newRecordId());
    assertOrgFits(organisation);
    const now = this.now();
    try {
      await this.db('organisations').insert({ ...toRow(organisation), created_at: now, updated_at: now });
    } catch (err) {
      if (isUniqueViolation(err)) throw OrgsErrors.idTaken(organisation.id);
      throw err;
    }
    return organisation;
  }

  async update(id: string, input: OrganisationInput): Promise<Organisation> {
    const organisation = withDefaults(input, id);
    assertOrgFits(organisation);
    const changed = await this.db('organisations')
      .where('id', id)
      .update({ ...toRow(organisation), updated_at: this.now() });
    if (changed === 0) throw OrgsErrors.notFound(id);
    return organisation;
  }

  async remove(id: string): Promise<void> {
    const removed = await this.db('organisations').where('id', id).delete();
    if (removed === 0) throw OrgsErrors.notFound(id);
  }
}

function withDefaults(input: OrganisationInput, id: string): Organisation {
  return {
    cname_enabled: false,
    cname: '',
    apis: [],
    developer_quota: 0,
    developer_count: 0,
    event_options: {},
    hybrid_enabled: false,
    ui: {},
    org_options_meta: {},
    ...input,
    id,
    owner_name: input.owner_name,
    owner_slug: input.owner_slug || slugify(input.owner_name),
  };
}

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function toRow(org: Organisation): Omit<OrgRow, 'created_at' | 'updated_at'> {
  return { id: org.id, owner_name: org.owner_name, owner_slug: org.owner_slug, document: JSON.stringify(org) };
}

function fromRow(row: OrgRow): Organisation {
  return parseJson<Organisation>(row.document, {} as Organisation);
}
