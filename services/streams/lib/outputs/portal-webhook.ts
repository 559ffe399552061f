import { createHmac } from 'node:crypto';
import type { Output } from '../components';
import type { StreamMessage } from '../message';
import { outboundCall, type OutboundPolicy } from '../outbound';
import type { ConnectorCounters } from '../stats';

export interface PortalWebhookConfig {
  event_type: string;
  portal_url: string;
  secret?: string;
}

interface Subscriber {
  url: string;
  secret: string;
}

/** How long the subscriber list read from the portal is reused. */
const SUBSCRIBERS_TTL_MS = 10_000;
/** Apps asked for per page of the portal's listing, and the most pages read (a runaway portal stops there). */
const APPS_PER_PAGE = 100;
const MAX_APP_PAGES = 100;

interface PortalHook {
  url?: string;
  URL?: string;
  secret?: string;
  Secret?: string;
  events?: string[];
  Events?: string[];
}

/** An app of the portal's listing with its webhook subscriptions (the portal API's PascalCase accepted too). */
interface PortalApp {
  webhooks?: PortalHook[];
  Webhooks?: PortalHook[];
}

/**
 * The `portal_webhook` output, as the reference gateway's: it reads the developer portal's
 * apps at `portal_url` (GET `/portal-api/apps?page=N&per_page=100`, `Authorization: <secret>`, every
 * page), takes the webhooks
 * of each app subscribed to `event_type` (`webhooks: [{url, secret, events}]`), and POSTs every
 * message to each, signed with HMAC-SHA256 of the body under the subscriber's secret
 * (`X-Gw-Signature: sha256=<hex>`, `X-Gw-Event: <event_type>`). A subscriber that already got
 * a message is not sent it again when the stream retries it for another.
 */
export class PortalWebhookOutput implements Output {
  private cached: { at: number; subscribers: Subscriber[] } | undefined;
  private readonly sentTo = new WeakMap<StreamMessage, Set<string>>();

  constructor(
    private readonly config: PortalWebhookConfig,
    private readonly policy: OutboundPolicy,
    private readonly counters: ConnectorCounters,
  ) {}

  async write(message: StreamMessage): Promise<void> {
    const subscribers = await this.subscribers();
    const done = this.sentTo.get(message) ?? new Set<string>();
    this.sentTo.set(message, done);
    const failures: string[] = [];
    await Promise.all(
      subscribers
        .filter((s) => !done.has(s.url))
        .map(async (subscriber) => {
          this.counters.connectionAttempts++;
          try {
            const signature = createHmac('sha256', subscriber.secret).update(message.content).digest('hex');
            const response = await outboundCall(subscriber.url, this.policy, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-gw-event': this.config.event_type,
                'x-gw-signature': `sha256=${signature}`,
              },
              body: message.content,
              timeoutMs: 10_000,
            });
            if (response.status < 200 || response.status >= 300)
              throw new Error(`${subscriber.url} answered ${response.status}`);
            done.add(subscriber.url);
          } catch (err) {
            this.counters.connectionFailures++;
            failures.push((err as Error).message);
          }
        }),
    );
    if (failures.length > 0) throw new Error(`portal webhook delivery failed: ${failures.join('; ')}`);
  }

  private async subscribers(): Promise<Subscriber[]> {
    if (this.cached && Date.now() - this.cached.at < SUBSCRIBERS_TTL_MS) return this.cached.subscribers;
    const subscribers: Subscriber[] = [];
    for (const app of await this.apps()) {
      for (const hook of app?.webhooks ?? app?.Webhooks ?? []) {
        const url = hook?.url ?? hook?.URL;
        const events = hook?.events ?? hook?.Events;
        if (typeof url === 'string' && Array.isArray(events) && events.includes(this.config.event_type))
          subscribers.push({ url, secret: String(hook?.secret ?? hook?.Secret ?? '') });
      }
    }
    this.cached = { at: Date.now(), subscribers };
    return subscribers;
  }

  /**
   * Every app of the portal: its management API (`/portal-api`, `Authorization: <admin
   * token>`) answers `GET /apps` with a JSON array, one page at a time (`page`, `per_page`).
   */
  private async apps(): Promise<PortalApp[]> {
    const base = `${this.config.portal_url.replace(/\/+$/, '')}/portal-api/apps`;
    const apps: PortalApp[] = [];
    for (let page = 1; page <= MAX_APP_PAGES; page++) {
      const response = await outboundCall(`${base}?page=${page}&per_page=${APPS_PER_PAGE}`, this.policy, {
        method: 'GET',
        headers: this.config.secret ? { authorization: this.config.secret } : {},
        timeoutMs: 10_000,
      });
      if (response.status !== 200) throw new Error(`the portal answered ${response.status} for its apps`);
      const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
      const batch = (Array.isArray(parsed) ? parsed : ((parsed as { apps?: unknown[] })?.apps ?? [])) as PortalApp[];
      apps.push(...batch);
      if (batch.length < APPS_PER_PAGE) break;
    }
    return apps;
  }

  async close(): Promise<void> {}
}
