/** The MCP sessions the gateway has seen opened, per API and key: their bound and their idle end. */

export interface McpSessionBounds {
  /** GW_MCP_MAX_SESSIONS_PER_KEY: sessions one key may hold on one API (0: no bound) */
  maxPerKey: number;
  /** GW_MCP_SESSION_IDLE_TIMEOUT in ms: a session unused this long is forgotten */
  idleMs: number;
  /** sessions the node remembers at all (the least recently used go first past it) */
  maxSessions?: number;
}

/** A session as the gateway remembers it: enough to count it and to end it upstream. */
export interface McpSession {
  apiId: string;
  sessionId: string;
  /** the key's hash; undefined on a keyless API, whose sessions are not bounded per key */
  keyHash: string | undefined;
  /** where the upstream was asked to open it: where its end (a DELETE) goes */
  endpoint: string;
  usedAt: number;
}

/** A place held for an `initialize` in flight, until the upstream names its session (or does not). */
export interface SessionReservation {
  confirm(sessionId: string, endpoint: string): void;
  release(): void;
}

/** What a request's `Mcp-Session-Id` is to the gateway. */
export type SessionState = 'known' | 'forgotten' | 'unknown';

const DEFAULT_MAX_SESSIONS = 50_000;

/**
 * Kept by the proxy service, outside any compiled API, so a reload that leaves an API as it was
 * keeps its sessions. Session ids are chosen by upstreams and keys by clients, so everything
 * here is bounded: sessions per key, sessions in all, and the forgotten ids remembered for a 404.
 * The map's order is the order of last use, so the idle ones are always at its front.
 */
export class McpSessionTable {
  private readonly sessions = new Map<string, McpSession>();
  private readonly perKey = new Map<string, number>();
  /** ids forgotten for idleness (or pushed out): a request carrying one is answered 404 */
  private readonly forgotten = new Set<string>();
  /** the definition each API's sessions were opened under (a changed API drops them) */
  private readonly versions = new Map<string, string>();
  private readonly maxSessions: number;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bounds: McpSessionBounds,
    /** told each session forgotten for idleness (the gateway ends it upstream) */
    private readonly onIdle: (session: McpSession) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.maxSessions = bounds.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (bounds.idleMs > 0) {
      const every = Math.max(100, Math.min(bounds.idleMs / 4, 60_000));
      this.timer = setInterval(() => this.sweep(), every);
      this.timer.unref();
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Holds a place for a session the key is opening on the API; undefined when the key holds
   * as many as it may.
   */
  reserve(apiId: string, keyHash: string | undefined): SessionReservation | undefined {
    this.sweep();
    const owner = ownerOf(apiId, keyHash);
    const held = this.perKey.get(owner) ?? 0;
    if (keyHash !== undefined && this.bounds.maxPerKey > 0 && held >= this.bounds.maxPerKey) return undefined;
    this.perKey.set(owner, held + 1);
    let settled = false;
    return {
      confirm: (sessionId, endpoint) => {
        if (settled) return;
        settled = true;
        const id = idOf(apiId, sessionId);
        if (this.sessions.has(id)) return this.release(owner);
        while (this.sessions.size >= this.maxSessions) this.pushOutOldest();
        this.forgotten.delete(id);
        this.sessions.set(id, { apiId, sessionId, keyHash, endpoint, usedAt: this.now() });
      },
      release: () => {
        if (settled) return;
        settled = true;
        this.release(owner);
      },
    };
  }

  /** A request carries the session id: a known session counts as used now. */
  use(apiId: string, sessionId: string): SessionState {
    this.sweep();
    const id = idOf(apiId, sessionId);
    const session = this.sessions.get(id);
    if (session) {
      session.usedAt = this.now();
      this.sessions.delete(id);
      this.sessions.set(id, session);
      return 'known';
    }
    return this.forgotten.has(id) ? 'forgotten' : 'unknown';
  }

  /** The client ended the session (a DELETE): its place is free. */
  end(apiId: string, sessionId: string): void {
    const id = idOf(apiId, sessionId);
    const session = this.sessions.get(id);
    if (session) this.forget(id, session);
  }

  /**
   * An API was compiled from `version` (its definition as text): sessions opened under another
   * definition of it are dropped, those of an unchanged one kept.
   */
  compiled(apiId: string, version: string): void {
    const known = this.versions.get(apiId);
    this.versions.set(apiId, version);
    if (known !== undefined && known !== version) this.dropApi(apiId);
  }

  /** Only these APIs are served now: the sessions of the others are dropped. */
  retain(apiIds: Set<string>): void {
    for (const apiId of [...this.versions.keys()])
      if (!apiIds.has(apiId)) {
        this.versions.delete(apiId);
        this.dropApi(apiId);
      }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Forgets the sessions unused for the idle timeout (the oldest are first in the map). */
  sweep(): void {
    if (this.bounds.idleMs <= 0) return;
    const before = this.now() - this.bounds.idleMs;
    for (const [id, session] of this.sessions) {
      if (session.usedAt > before) break;
      this.forget(id, session);
      this.remember(id);
      this.onIdle(session);
    }
  }

  private dropApi(apiId: string): void {
    for (const [id, session] of this.sessions) if (session.apiId === apiId) this.forget(id, session);
  }

  private pushOutOldest(): void {
    const oldest = this.sessions.entries().next().value;
    if (!oldest) return;
    this.forget(oldest[0], oldest[1]);
    this.remember(oldest[0]);
  }

  private forget(id: string, session: McpSession): void {
    this.sessions.delete(id);
    this.release(ownerOf(session.apiId, session.keyHash));
  }

  private remember(id: string): void {
    this.forgotten.add(id);
    if (this.forgotten.size > this.maxSessions) this.forgotten.delete(this.forgotten.values().next().value!);
  }

  private release(owner: string): void {
    const held = (this.perKey.get(owner) ?? 1) - 1;
    if (held > 0) this.perKey.set(owner, held);
    else this.perKey.delete(owner);
  }
}

function idOf(apiId: string, sessionId: string): string {
  return `${apiId}\n${sessionId}`;
}

function ownerOf(apiId: string, keyHash: string | undefined): string {
  return `${apiId}\n${keyHash ?? ''}`;
}
