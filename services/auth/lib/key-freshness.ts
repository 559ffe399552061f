/**
 * Follows the store's key/policy revision on a gateway node. A change that follows on (last + 1)
 * only drops what it names; a gap, or an announced or checked revision that differs, means
 * changes were missed, so every cached session is dropped.
 */
export class KeyFreshness {
  /** the revision the cache reflects; undefined until the first change or check */
  revision: number | undefined;

  constructor(
    private readonly forgetAll: () => void,
    private readonly currentRevision: () => Promise<number>,
    private readonly logger: { warn(message: string): void },
  ) {}

  /** After `keys.changed` or `policies.changed` has dropped what it names. */
  followed(revision: unknown): void {
    if (typeof revision !== 'number') {
      this.forgetAll();
      return;
    }
    if (this.revision !== undefined && revision <= this.revision) return;
    if (this.revision === undefined || revision !== this.revision + 1) this.forgetAll();
    this.revision = revision;
  }

  /** `keys.revision`, announced by a store node that saw this node (re)appear. */
  announced(revision: number): void {
    if (revision === this.revision) return;
    this.forgetAll();
    this.revision = revision;
  }

  /** Asks the store (cheap) whether this node missed changes. */
  async check(): Promise<void> {
    try {
      this.announced(await this.currentRevision());
    } catch (err) {
      this.logger.warn(`could not check the key revision of the store: ${(err as Error).message}`);
    }
  }
}
