/**
 * A least-recently-used cache bounded by the bytes of its keys (query texts): a few huge
 * documents can not hold more memory than many small ones. An entry larger than the whole
 * budget is not kept. Lookups cost one hash (and a re-insert to mark the entry as recent).
 */
export class DocumentCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(private budget: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const bytes = Buffer.byteLength(key);
    this.delete(key);
    if (bytes > this.budget) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    this.evict();
  }

  /** the bytes of the query texts held */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  setBudget(bytes: number): void {
    this.budget = bytes;
    this.evict();
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  private evict(): void {
    while (this.total > this.budget) this.delete(this.entries.keys().next().value as string);
  }
}

/** @default 8 MiB (GW_GRAPHQL_DOCUMENT_CACHE_BYTES) */
export const DEFAULT_DOCUMENT_CACHE_BYTES = 8 * 1024 * 1024;
