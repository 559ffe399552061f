import type { Knex } from 'knex';
import type { Session } from '../../../contracts/keys/session';
import { parseJson } from '../../../lib/store/migrate';
import type { PageWindow } from '../../../lib/pagination';
import { bumpRevision, currentRevision } from '../../../lib/store/revision';
import { KEYS_REVISION_TABLE } from './migrations';

export interface StoredKey {
  key_hash: string;
  /** the key itself, only when hashing is off */
  key_id: string | null;
  org_id: string;
  kind: 'key' | 'basic';
  username: string | null;
  session: Session;
  password_hash: string;
  created_at: number;
  updated_at: number;
}

interface KeyRow extends Omit<StoredKey, 'session' | 'created_at' | 'updated_at'> {
  session: string;
  created_at: number | string;
  updated_at: number | string;
}

/** The `keys` and `key_apis` tables. Queries only; the rules live in `key-registry.ts`. */
export class KeyStore {
  constructor(private readonly db: Knex) {}

  async find(keyHash: string): Promise<StoredKey | undefined> {
    const row = await this.db<KeyRow>('keys').where('key_hash', keyHash).first();
    return row ? fromRow(row) : undefined;
  }

  /** Each write returns its store revision (shared with policies). */
  async insert(key: StoredKey): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx('keys').insert(toRow(key));
      await this.indexApis(trx, key);
      return bumpRevision(trx, KEYS_REVISION_TABLE);
    });
  }

  async update(key: StoredKey): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx('keys').where('key_hash', key.key_hash).update(toRow(key));
      await trx('key_apis').where('key_hash', key.key_hash).delete();
      await this.indexApis(trx, key);
      return bumpRevision(trx, KEYS_REVISION_TABLE);
    });
  }

  async delete(keyHash: string): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx('key_apis').where('key_hash', keyHash).delete();
      await trx('keys').where('key_hash', keyHash).delete();
      return bumpRevision(trx, KEYS_REVISION_TABLE);
    });
  }

  /** The latest key/policy revision. */
  revision(): Promise<number> {
    return currentRevision(this.db, KEYS_REVISION_TABLE);
  }

  /** The hashes of an organisation's keys. */
  async hashesOfOrganisation(orgId: string): Promise<string[]> {
    return (await this.db<KeyRow>('keys').where('org_id', orgId).select('key_hash')).map((row) => row.key_hash);
  }

  /** Keys (their ids, or hashes when hashed) that name `apiId` in their own access rights. */
  async list(
    filter: { apiId?: string; orgScope?: string; prefix?: string },
    window: PageWindow,
  ): Promise<{ keys: StoredKey[]; total: number }> {
    const base = this.db<KeyRow>('keys').modify((q) => {
      if (filter.orgScope !== undefined) q.where('keys.org_id', filter.orgScope);
      // substr rather than LIKE: a filter's % and _ are characters, on every store.
      if (filter.prefix !== undefined)
        q.whereRaw('substr(keys.key_id, 1, ?) = ?', [filter.prefix.length, filter.prefix]);
      if (filter.apiId !== undefined)
        q.whereIn('keys.key_hash', this.db('key_apis').select('key_hash').where('api_id', filter.apiId));
    });
    const [{ total }] = await base.clone().count({ total: '*' });
    const page = base.clone().select('*').orderBy('created_at').offset(window.offset);
    if (window.limit !== undefined) page.limit(window.limit);
    return { keys: (await page).map(fromRow), total: Number(total) };
  }

  async countForApi(apiId: string): Promise<number> {
    const [{ total }] = await this.db('key_apis').where('api_id', apiId).count({ total: '*' });
    return Number(total);
  }

  private async indexApis(trx: Knex, key: StoredKey): Promise<void> {
    const apiIds = Object.keys(key.session.access_rights ?? {});
    if (apiIds.length > 0) await trx('key_apis').insert(apiIds.map((api_id) => ({ key_hash: key.key_hash, api_id })));
  }
}

function toRow(key: StoredKey): KeyRow {
  return { ...key, session: JSON.stringify(key.session) };
}

function fromRow(row: KeyRow): StoredKey {
  return {
    ...row,
    session: parseJson<Session>(row.session, {}),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}
