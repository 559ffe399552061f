import type { LoggerInstance } from 'moleculer';
import { fetch } from 'undici';
import { tenantAgent } from '../../../lib/net/tenant-agent';

/** The notification URL is a tenant's: never a cloud-metadata address nor this node's own ports. */
const notifyAgent = tenantAgent({ keepAliveTimeout: 10_000 });

/** The body the reference gateway POSTs to `notifications.oauth_on_keychange_url`. */
export interface KeyChangeNotification {
  auth_code: string;
  new_oauth_token: string;
  refresh_token: string;
  old_refresh_token: string;
  notification_type: 'new' | 'refresh';
}

export interface NotifierOptions {
  /** attempts per notification (the reference gateway tries 3 times) */
  attempts: number;
  /** wait between attempts, ms (the reference gateway waits 10 s) */
  retryDelayMs: number;
  timeoutMs: number;
}

const DEFAULTS: NotifierOptions = { attempts: 3, retryDelayMs: 10_000, timeoutMs: 10_000 };

/**
 * Sends key-change notifications off the request path: JSON POST with the API's shared secret in
 * `X-Gw-Shared-Secret`, retried while the receiver does not answer 200. Pending retries are
 * dropped on `stop()`.
 */
export class KeyChangeNotifier {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly options: NotifierOptions;
  private stopped = false;

  constructor(
    private readonly logger: LoggerInstance,
    options: Partial<NotifierOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  send(url: string, sharedSecret: string, notification: KeyChangeNotification): void {
    void this.attempt(url, sharedSecret, JSON.stringify(notification), 1);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async attempt(url: string, sharedSecret: string, body: string, attempt: number): Promise<void> {
    if (this.stopped) return;
    let problem: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'gw-notifications',
          'x-gw-shared-secret': sharedSecret,
        },
        body,
        redirect: 'manual',
        dispatcher: notifyAgent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 200) return;
      problem = `status ${response.status}`;
    } catch (err) {
      problem = (err as Error).message;
    }
    if (attempt >= this.options.attempts || this.stopped) {
      this.logger.warn(
        `OAuth key-change notification to ${safeUrl(url)} failed ${attempt} times (${problem}); giving up`,
      );
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(url, sharedSecret, body, attempt + 1);
    }, this.options.retryDelayMs);
    timer.unref();
    this.timers.add(timer);
  }
}

/** The URL without credentials or query, for logs. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
