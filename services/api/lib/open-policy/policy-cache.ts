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

/** Organisations whose compiled rules a node keeps; the least recently used go first. */
const MAX_ORGS = 1000;

/**
 * Compiled rules per organisation, fresh across management nodes: `orgs.settings.changed`
 * drops the organisation it names; a gap in its revisions, an announced revision that differs
 * (a store node saw this node (re)appear), or the periodic check finding another revision
 * drops everything. Concurrent misses of one organisation share one fetch and compile.
 */
export class OrgPolicyCache {
  /** in order of use, least recent first (a hit moves its entry to the end) */
  private readonly entries = new Map<string, CachedPolicy>();
  /** fetches under way, joined by concurrent misses; forgotten on any change, so a later request fetches anew */
  private readonly pending = new Map<string, Promise<CachedPolicy>>();
  /** the last settings revision seen; undefined until the first change or check */
  private revision: number | undefined;

  constructor(
    private readonly fetch: (orgId: string) => Promise<OrgsOpenPolicyResult>,
    private readonly currentRevision: () => Promise<number>,
    private readonly logger: { warn(message: string): void },
    private readonly maxOrgs = MAX_ORGS,
  ) {}

  get(orgId: string): Promise<CachedPolicy> {
    const hit = this.entries.get(orgId);
    if (hit) {
      this.entries.delete(orgId);
      this.entries.set(orgId, hit);
      return Promise.resolve(hit);
    }
    let pending = this.pending.get(orgId);
    if (!pending) {
      pending = this.load(orgId);
      this.pending.set(orgId, pending);
      const settled = pending;
      const forget = () => {
        if (this.pending.get(orgId) === settled) this.pending.delete(orgId);
      };
      settled.then(forget, forget);
    }
    return pending;
  }

  private async load(orgId: string): Promise<CachedPolicy> {
    const fetched = await this.fetch(orgId);
    const entry = compiled(fetched);
    // An answer older than a change already seen raced it: use it for the requests that waited on it only.
    if (this.revision === undefined || fetched.revision >= this.revision) {
      if (this.entries.size >= this.maxOrgs && !this.entries.has(orgId))
        this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(orgId, entry);
    }
    return entry;
  }

  /** After `orgs.settings.changed`. */
  changed(orgId: string, revision: unknown): void {
    if (typeof revision !== 'number') {
      this.clear();
      return;
    }
    if (this.revision !== undefined && revision <= this.revision) {
      this.forget(orgId);
      return;
    }
    if (this.revision === undefined || revision !== this.revision + 1) this.clear();
    else this.forget(orgId);
    this.revision = revision;
  }

  private forget(orgId: string): void {
    this.entries.delete(orgId);
    this.pending.delete(orgId);
  }

  private clear(): void {
    this.entries.clear();
    this.pending.clear();
  }

  /** `orgs.settings.revision`, announced by a store node that saw this node (re)appear. */
  announced(revision: number): void {
    if (revision === this.revision) return;
    this.clear();
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
