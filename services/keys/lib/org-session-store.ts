import type { Knex } from 'knex';
import type { OrgSession, OrgSessionRecord } from '../../../contracts/keys/org-sessions';
import { parseJson } from '../../../lib/store/migrate';
import { bumpRevision, currentRevision } from '../../../lib/store/revision';
import { ORG_SESSIONS_REVISION_TABLE } from './migrations';

interface OrgSessionRow {
  org_id: string;
  session: string;
  quota_epoch: number | string;
  created_at: number | string;
  updated_at: number | string;
}

/** The `org_sessions` table. Queries only; the rules live in `org-session-registry.ts`. */
export class OrgSessionStore {
  constructor(private readonly db: Knex) {}

  async find(orgId: string): Promise<OrgSessionRecord | undefined> {
    const row = await this.db<OrgSessionRow>('org_sessions').where('org_id', orgId).first();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Creates or replaces an organisation's session in one transaction; `resetQuota` moves it to a
   * new counter epoch. Answers the stored record, whether it was new, and the change's revision.
   */
  async save(
    orgId: string,
    session: OrgSession,
    resetQuota: boolean,
    now: number,
  ): Promise<{ record: OrgSessionRecord; created: boolean; revision: number }> {
    return this.db.transaction(async (trx) => {
      // First: the revision row's lock serialises writers, so two first saves never both insert.
      const revision = await bumpRevision(trx, ORG_SESSIONS_REVISION_TABLE);
      const found = await trx<OrgSessionRow>('org_sessions').where('org_id', orgId).first();
      const epoch = found ? Number(found.quota_epoch) + (resetQuota ? 1 : 0) : 0;
      const row = { session: JSON.stringify(session), quota_epoch: epoch, updated_at: now };
      if (found) await trx('org_sessions').where('org_id', orgId).update(row);
      else await trx('org_sessions').insert({ org_id: orgId, ...row, created_at: now });
      return { record: { org_id: orgId, session, quota_epoch: epoch }, created: !found, revision };
    });
  }

  /** The change's revision, or undefined when the organisation had no session. */
  async remove(orgId: string): Promise<number | undefined> {
    return this.db.transaction(async (trx) => {
      const removed = await trx('org_sessions').where('org_id', orgId).delete();
      return removed > 0 ? bumpRevision(trx, ORG_SESSIONS_REVISION_TABLE) : undefined;
    });
  }

  async orgIds(prefix: string): Promise<string[]> {
    const query = this.db<OrgSessionRow>('org_sessions').orderBy('org_id').select('org_id');
    // a LIKE pattern would need its own escaping: the prefix bounds the range, the code checks it
    if (prefix !== '') query.where('org_id', '>=', prefix);
    const rows: Array<{ org_id: string }> = await query;
    return rows.map((row) => row.org_id).filter((id) => id.startsWith(prefix));
  }

  /** Every session and the revision they reflect, read in one transaction. */
  async snapshot(): Promise<{ records: OrgSessionRecord[]; revision: number }> {
    return this.db.transaction(async (trx) => {
      const rows = await trx<OrgSessionRow>('org_sessions').select('*');
      return { records: rows.map(fromRow), revision: await currentRevision(trx, ORG_SESSIONS_REVISION_TABLE) };
    });
  }

  revision(): Promise<number> {
    return currentRevision(this.db, ORG_SESSIONS_REVISION_TABLE);
  }
}

function fromRow(row: OrgSessionRow): OrgSessionRecord {
  return {
    org_id: row.org_id,
    session: parseJson<OrgSession>(row.session, {}),
    quota_epoch: Number(row.quota_epoch),
  };
}
