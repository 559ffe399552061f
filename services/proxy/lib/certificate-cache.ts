import type { CertificateMaterial } from '../../../contracts/certs/actions';

type Fetch = (ids: string[], orgId: string | undefined) => Promise<CertificateMaterial[]>;

interface Entry {
  material: CertificateMaterial | null;
  /** absent entries are asked again after this (epoch ms); found ones wait for `certs.changed` */
  expiresAt: number;
}

export interface CertificateCacheOptions {
  /** entries kept at most (least recently used go first); @default 1000 */
  maxEntries?: number;
  /** how long "not in the store" is believed, in ms; @default 10000 */
  absentTtlMs?: number;
  now?: () => number;
}

/**
 * The certificates a gateway node uses (client allow lists, upstream client certificates, its
 * own TLS certificate), fetched through `certs.material` (gateway nodes never open the
 * database) and kept in memory, bounded, until `certs.changed` names them. Entries are per
 * organisation asked for, so an API never sees another organisation's certificate.
 */
export class CertificateCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly absentTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly fetch: Fetch,
    options: CertificateCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.absentTtlMs = options.absentTtlMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The certificates among `ids` that the store holds for `orgId` (`undefined`: any organisation). */
  async get(ids: readonly string[], orgId: string | undefined): Promise<Map<string, CertificateMaterial>> {
    const found = new Map<string, CertificateMaterial>();
    const missing: string[] = [];
    const now = this.now();
    for (const id of ids) {
      const entry = this.entries.get(cacheKey(orgId, id));
      if (!entry || entry.expiresAt <= now) missing.push(id);
      else {
        this.touch(cacheKey(orgId, id), entry);
        if (entry.material) found.set(id, entry.material);
      }
    }
    if (missing.length === 0) return found;
    const fetched = new Map((await this.fetch(missing, orgId)).map((material) => [material.id, material]));
    for (const id of missing) {
      const material = fetched.get(id) ?? null;
      this.touch(cacheKey(orgId, id), { material, expiresAt: material ? Infinity : this.now() + this.absentTtlMs });
      if (material) found.set(id, material);
    }
    return found;
  }

  /** `certs.changed`: the certificate was added or removed. */
  forget(id: string): void {
    for (const key of this.entries.keys()) if (key.endsWith(`\u0000${id}`)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function cacheKey(orgId: string | undefined, id: string): string {
  return `${orgId ?? '*'}\u0000${id}`;
}
