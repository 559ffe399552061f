import type { OrgsOpenPolicyResult } from '../../../../contracts/orgs/actions';
import { PolicyProgram } from '../../../../lib/rego/policy';

/** An organisation's rules as this node enforces them: compiled once per change. */
export interface CachedPolicy {
  enabled: boolean;
  debug: boolean;
  /** absent when the stored rules do not compile (stored before gw checked them) */
  program?: PolicyProgram;
  compileError?: string;
  org: OrgsOpenPolicyResult['org'];
}

/** Organisations whose compiled rules a node keeps; the least recently fetched go first. */
const MAX_ORGS = 1000;

/**
 * Compiled rules per organisation, fresh across management nodes: `orgs.settings.changed`
 * drops the organisation it names; a gap in its revisions, an announced revision that differs
 * (a store node saw this node (re)appear), or the periodic check finding another revision
 * drops everything.
 */
export class OrgPolicyCache {
  private readonly entries = new Map<string, CachedPolicy>();
  /** the last settings revision seen; undefined until the first change or check */
  private revision: number | undefined;

  constructor(
    private readonly fetch: (orgId: string) => Promise<OrgsOpenPolicyResult>,
    private readonly currentRevision: () => Promise<number>,
    private readonly logger: { warn(message: string): void },
  ) {}

  async get(orgId: string): Promise<CachedPolicy> {
    const hit = this.entries.get(orgId);
    if (hit) return hit;
    const fetched = await this.fetch(orgId);
    const entry = compiled(fetched);
    // An answer older than a change already seen raced it: use it for this request only.
    if (this.revision === undefined || fetched.revision >= this.revision) {
      if (this.entries.size >= MAX_ORGS) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(orgId, entry);
    }
    return entry;
  }

  /** After `orgs.settings.changed`. */
  changed(orgId: string, revision: unknown): void {
    if (typeof revision !== 'number') {
      this.entries.clear();
      return;
    }
    if (this.revision !== undefined && revision <= this.revision) {
      this.entries.delete(orgId);
      return;
    }
    if (this.revision === undefined || revision !== this.revision + 1) this.entries.clear();
    else this.entries.delete(orgId);
    this.revision = revision;
  }

  /** `orgs.settings.revision`, announced by a store node that saw this node (re)appear. */
  announced(revision: number): void {
    if (revision === this.revision) return;
    this.entries.clear();
    this.revision = revision;
  }

  /** Asks the store (cheap) whether this node missed changes. */
  async check(): Promise<void> {
    try {
      this.announced(await this.currentRevision());
    } catch (err) {
      this.logger.warn(`could not check the policy-rules revision of the store: ${(err as Error).message}`);
    }
  }
}

function compiled(fetched: OrgsOpenPolicyResult): CachedPolicy {
  const { enabled, rules, debug } = fetched.open_policy;
  const entry: CachedPolicy = { enabled, debug: debug === true, org: fetched.org };
  if (!enabled) return entry;
  try {
    entry.program = PolicyProgram.compile(rules);
  } catch (err) {
    entry.compileError = (err as Error).message;
  }
  return entry;
}
