import type { Knex } from 'knex';
import type { OpenPolicy } from '../../../contracts/orgs/actions';
import { PolicyProgram, RegoError } from '../../../lib/rego/policy';
import { parseJson } from '../../../lib/store/migrate';
import { bumpRevision, currentRevision } from '../../../lib/store/revision';
import { OrgsErrors } from '../errors';

export type { OpenPolicy };

const REVISION_TABLE = 'org_settings_revision';

interface SettingsRow {
  org_id: string;
  additional_permissions: string | null;
  open_policy: string | null;
}

/**
 * Organisation-level settings (docs/users-and-organisations.md#organisation-settings): the
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

  /**
   * Stores the rules only when they parse and stay inside the subset gw evaluates (a file that
   * would be ignored is refused, with the construct and its line). Returns the change's revision.
   */
  async setOpenPolicy(orgId: string, value: OpenPolicy): Promise<number> {
    assertRulesCompile(value.rules);
    const stored: OpenPolicy = {
      enabled: value.enabled,
      rules: value.rules,
      ...(value.debug === undefined ? {} : { debug: value.debug }),
    };
    return this.db.transaction(async (trx) => {
      await this.upsert(orgId, { open_policy: JSON.stringify(stored) }, trx);
      return bumpRevision(trx, REVISION_TABLE);
    });
  }

  /** Numbers a change of the organisation itself (its name is in the rules' input). */
  touch(): Promise<number> {
    return this.db.transaction((trx) => bumpRevision(trx, REVISION_TABLE));
  }

  revision(): Promise<number> {
    return currentRevision(this.db, REVISION_TABLE);
  }

  async remove(orgId: string): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx('org_settings').where('org_id', orgId).delete();
      return bumpRevision(trx, REVISION_TABLE);
    });
  }

  private row(orgId: string): Promise<SettingsRow | undefined> {
    return this.db<SettingsRow>('org_settings').where('org_id', orgId).first();
  }

  private async upsert(orgId: string, values: Partial<SettingsRow>, db: Knex = this.db): Promise<void> {
    await db('org_settings')
      .insert({ org_id: orgId, ...values })
      .onConflict('org_id')
      .merge(values);
  }
}

function assertRulesCompile(rules: string): void {
  let program: PolicyProgram;
  try {
    program = PolicyProgram.compile(rules);
  } catch (err) {
    if (err instanceof RegoError) throw OrgsErrors.badRules(err.message, err.location.line, err.location.column);
    throw err;
  }
  // The reference dashboard rewrites requests with `patch_request`; gw only denies, and a rule
  // it would ignore is refused rather than stored.
  const patch = program.ruleLocation('patch_request');
  if (patch)
    throw OrgsErrors.badRules(
      `line ${patch.line}, column ${patch.column}: 'patch_request' rules (changing the request) are not supported by gw's policy engine`,
      patch.line,
      patch.column,
    );
}
