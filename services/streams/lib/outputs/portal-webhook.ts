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

/**
 * The `portal_webhook` output, as the reference gateway's: it reads the developer portal's
 * apps at `portal_url` (GET `/portal-api/apps`, `Authorization: <secret>`), takes the webhooks
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
              headers: { 'content-type': 'application/json', 'x-gw-event': this.config.event_type, 'x-gw-signature': `sha256=${signature}` },
              body: message.content,
              timeoutMs: 10_000,
            });
            if (response.status < 200 || response.status >= 300) throw new Error(`${subscriber.url} answered ${response.status}`);
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
    const url = `${this.config.portal_url.replace(/\/+$/, '')}/portal-api/apps`;
    const response = await outboundCall(url, this.policy, { method: 'GET', headers: this.config.secret ? { authorization: this.config.secret } : {}, timeoutMs: 10_000 });
    if (response.status !== 200) throw new Error(`the portal answered ${response.status} for its apps`);
    const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
    const apps = (Array.isArray(parsed) ? parsed : ((parsed as { apps?: unknown[] })?.apps ?? [])) as Array<{ webhooks?: Array<{ url?: string; secret?: string; events?: string[] }> }>;
    const subscribers: Subscriber[] = [];
    for (const app of apps) {
      for (const hook of app?.webhooks ?? []) {
        if (typeof hook?.url === 'string' && Array.isArray(hook.events) && hook.events.includes(this.config.event_type)) subscribers.push({ url: hook.url, secret: String(hook.secret ?? '') });
      }
    }
    this.cached = { at: Date.now(), subscribers };
    return subscribers;
  }

  async close(): Promise<void> {}
}
