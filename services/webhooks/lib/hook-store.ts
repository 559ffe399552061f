import type { Knex } from 'knex';
import { inOrg } from '../../../lib/store/org-scope';
import type { Delivery, Webhook, WebhooksListResult } from '../../../contracts/webhooks/actions';
import { newRecordId } from '../../../lib/ids';
import { paginate } from '../../../lib/store/paginate';
import { parseJson } from '../../../lib/store/migrate';
import { WebhooksErrors } from '../errors';
import { assertHookFits } from './column-limits';

interface HookRow {
  id: string;
  org_id: string;
  document: string;
  created_at: number | string;
  updated_at: number | string;
}

type HookInput = Partial<Webhook> & Pick<Webhook, 'name' | 'target_path'>;

/** Webhooks (`hooks`) and the log of their deliveries (`hook_deliveries`). */
export class HookStore {
  constructor(
    private readonly db: Knex,
    private readonly pageSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  async list(orgScope: string | undefined, page: number): Promise<WebhooksListResult> {
    const base = this.db('hooks').modify(inOrg(orgScope));
    const { rows, pages } = await paginate<HookRow>(base, page, this.pageSize);
    return { hooks: rows.map((row) => parseJson<Webhook>(row.document, {} as Webhook)), pages };
  }

  async get(id: string, orgScope?: string): Promise<Webhook> {
    const row = await this.db<HookRow>('hooks').where('id', id).modify(inOrg(orgScope)).first();
    if (!row) throw WebhooksErrors.notFound(id);
    return parseJson<Webhook>(row.document, {} as Webhook);
  }

  /** A webhook of one organisation, by id; another organisation's id finds nothing. */
  async find(id: string, orgId: string): Promise<Webhook | undefined> {
    const row = await this.db<HookRow>('hooks').where({ id, org_id: orgId }).first();
    return row ? parseJson<Webhook>(row.document, {} as Webhook) : undefined;
  }

  async create(input: HookInput, orgScope: string | undefined): Promise<Webhook> {
    const hook = withDefaults(input, newRecordId(), orgScope ?? input.org_id ?? '');
    assertHookFits(hook);
    const now = this.now();
    await this.db('hooks').insert({
      id: hook.id,
      org_id: hook.org_id,
      document: JSON.stringify(hook),
      created_at: now,
      updated_at: now,
    });
    return hook;
  }

  async update(id: string, input: HookInput, orgScope: string | undefined): Promise<Webhook> {
    const current = await this.get(id, orgScope);
    const hook = withDefaults(input, id, current.org_id);
    await this.db('hooks')
      .where('id', id)
      .update({ document: JSON.stringify(hook), updated_at: this.now() });
    return hook;
  }

  async remove(id: string, orgScope: string | undefined): Promise<void> {
    await this.get(id, orgScope);
    await this.db('hooks').where('id', id).delete();
  }

  async removeOrganisation(orgId: string): Promise<void> {
    await this.db('hooks').where('org_id', orgId).delete();
  }

  async logDelivery(delivery: Omit<Delivery, 'id' | 'created_at'> & { org_id: string }): Promise<void> {
    await this.db('hook_deliveries').insert({ ...delivery, id: newRecordId(), created_at: this.now() });
  }

  /** The newest deliveries of a webhook first. */
  async deliveries(hookId: string): Promise<Delivery[]> {
    const rows = await this.db('hook_deliveries').where('hook_id', hookId).orderBy('created_at', 'desc').limit(100);
    return rows.map((row: Record<string, unknown>) => ({
      id: String(row.id),
      hook_id: String(row.hook_id),
      api_id: String(row.api_id),
      event: String(row.event),
      status: row.status as Delivery['status'],
      attempts: Number(row.attempts),
      response_code: Number(row.response_code),
      error: String(row.error),
      created_at: new Date(Number(row.created_at)).toISOString(),
    }));
  }
}

function withDefaults(input: HookInput, id: string, orgId: string): Webhook {
  return {
    method: 'POST',
    template_path: '',
    header_map: {},
    event_timeout: 0,
    ...input,
    id,
    org_id: orgId,
  };
}
