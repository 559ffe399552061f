/**
 * A map with a size cap and a time to live per entry: reading an entry makes it the most
 * recently used, and adding one beyond the cap evicts the least recently used. Expired entries
 * are dropped when read or when they reach the old end, so memory never exceeds the cap.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  /** the most recently used key: reading it again needs no reordering (a busy key, read per request) */
  private newest: K | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  set(key: K, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    this.newest = key;
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  clear(): void {
    this.entries.clear();
    this.newest = undefined;
  }

  /** Drops every entry the predicate selects. */
  deleteWhere(select: (key: K, value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (select(key, entry.value)) this.delete(key);
  }
}
