import type { Knex } from 'knex';
import { parseJson } from '../../../lib/store/migrate';

export interface OpenPolicy {
  enabled: boolean;
  rules: string;
}

interface SettingsRow {
  org_id: string;
  additional_permissions: string | null;
  open_policy: string | null;
}

/**
 * Organisation-level settings (SPEC.md "Additional permissions and policy-engine rules"): the
 * configured defaults until an organisation stores its own; a PUT replaces the whole value.
 */
export class OrgSettings {
  constructor(
    private readonly db: Knex,
    private readonly defaults: { additionalPermissions: Record<string, string>; openPolicy: OpenPolicy },
  ) {}

  async additionalPermissions(orgId: string): Promise<Record<string, string>> {
    const row = await this.row(orgId);
    return parseJson(row?.additional_permissions, this.defaults.additionalPermissions);
  }

  async openPolicy(orgId: string): Promise<OpenPolicy> {
    const row = await this.row(orgId);
    return parseJson(row?.open_policy, this.defaults.openPolicy);
  }

  async setAdditionalPermissions(orgId: string, value: Record<string, string>): Promise<void> {
    await this.upsert(orgId, { additional_permissions: JSON.stringify(value) });
  }

  async setOpenPolicy(orgId: string, value: OpenPolicy): Promise<void> {
    await this.upsert(orgId, { open_policy: JSON.stringify(value) });
  }

  async remove(orgId: string): Promise<void> {
    await this.db('org_settings').where('org_id', orgId).delete();
  }

  private row(orgId: string): Promise<SettingsRow | undefined> {
    return this.db<SettingsRow>('org_settings').where('org_id', orgId).first();
  }

  private async upsert(orgId: string, values: Partial<SettingsRow>): Promise<void> {
    await this.db('org_settings').insert({ org_id: orgId, ...values }).onConflict('org_id').merge(values);
  }
}
