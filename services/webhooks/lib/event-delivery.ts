import { request } from 'undici';
import { tenantAgent } from '../../../lib/net/tenant-agent';
import type { HookReference } from '../../../contracts/apis/api-definition';
import type { GatewayEvent } from '../../../contracts/events';
import type { Webhook } from '../../../contracts/webhooks/actions';
import { errorMessage } from '../../../lib/store/store-errors';
import { readTemplate } from './template-file';
import type { Tracing } from '../../../lib/observability/tracing/tracing';
import { endDeliverySpan, startDeliverySpan } from './delivery-span';

/** A webhook's URL is a tenant's: never a cloud-metadata address nor this node's own ports (checked on the address connected to). */
const hookAgent = tenantAgent({ keepAliveTimeout: 10_000 });

/** a cap on the cool-downs held, in case events with ever new keys outrun the sweep */
const MAX_COOL_DOWNS = 100_000;
/** a cap on the template problems remembered as already logged (past it, they are logged again) */
const MAX_TEMPLATE_WARNINGS = 1000;

export interface DeliveryDeps {
  /** the hook references of the API an event is about, and that API's organisation */
  hookReferences(apiId: string): Promise<{ orgId: string; references: HookReference[] }>;
  /** a stored webhook of this organisation (and no other), when a reference names one by id */
  storedHook(id: string, orgId: string): Promise<Webhook | undefined>;
  /** the folder templates are read from (GW_TEMPLATE_PATH/webhooks) */
  templatesFolder: string;
  log(entry: {
    hook_id: string;
    org_id: string;
    api_id: string;
    event: string;
    status: 'delivered' | 'failed';
    attempts: number;
    response_code: number;
    error: string;
  }): Promise<void>;
  warn(message: string): void;
  now?: () => number;
  /** waits between attempts, in ms (tests shorten them) */
  backoffMs?: number[];
  attemptTimeoutMs?: number;
  /** the node's tracer when tracing is on: each delivery attempt is a client span, in the event's request's trace */
  tracing?: Tracing;
}

/**
 * Delivers gateway events to the webhooks an API's `hook_references` name: the hook's method
 * and headers, a body from its template (`{{.Field}}` or `{{ field }}` placeholders of the
 * event; the event as JSON without one), retried after a failure, never on the request path.
 * A reference by id resolves only among the webhooks of the API's own organisation, and a
 * template is read only from inside the templates folder (symlinks followed).
 * Within `event_timeout` seconds the same event for the same key is not sent again.
 */
export class EventDelivery {
  /** hook|event|key → until when the same event is not sent again; only cool-downs still running */
  private readonly coolingUntil = new Map<string, number>();
  private sweptAt = 0;
  private readonly now: () => number;
  private readonly backoffMs: number[];
  /** template path and problem of the templates already warned about: logged once, not per event */
  private readonly templateWarnings = new Set<string>();

  constructor(private readonly deps: DeliveryDeps) {
    this.now = deps.now ?? Date.now;
    this.backoffMs = deps.backoffMs ?? [1000, 5000];
  }

  async handle(received: GatewayEvent): Promise<void> {
    // A bus message: only a gateway event of the right shape is delivered.
    if (
      !received ||
      typeof received !== 'object' ||
      typeof received.event !== 'string' ||
      typeof received.api_id !== 'string' ||
      !received.api_id
    )
      return;
    // the trace context travels beside the event, not in what the webhook receives
    const { trace_headers: traceHeaders, ...event } = received;
    const { orgId, references } = await this.deps.hookReferences(event.api_id);
    for (const reference of references.filter((ref) => eventNamed(ref.event_name) === event.event)) {
      const hook = await this.resolve(reference, orgId);
      if (!hook) continue;
      const cooldown = (reference.event_timeout ?? hook.event_timeout ?? 0) * 1000;
      if (cooldown > 0 && this.cooling(`${hook.id}|${event.event}|${event.key}`, cooldown)) continue;
      void this.deliver(hook, event, traceHeaders);
    }
  }

  /** how many cool-downs are held */
  get coolDowns(): number {
    return this.coolingUntil.size;
  }

  /** Whether this event is within its cool-down; starts one when it is not. */
  private cooling(dedupe: string, cooldownMs: number): boolean {
    const now = this.now();
    this.sweep(now);
    const until = this.coolingUntil.get(dedupe);
    if (until !== undefined && now < until) return true;
    this.coolingUntil.delete(dedupe);
    if (this.coolingUntil.size >= MAX_COOL_DOWNS)
      this.coolingUntil.delete(this.coolingUntil.keys().next().value as string);
    this.coolingUntil.set(dedupe, now + cooldownMs);
    return false;
  }

  /** At most once a minute, drops the cool-downs that have run out. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [dedupe, until] of this.coolingUntil) if (until <= now) this.coolingUntil.delete(dedupe);
  }

  private async resolve(reference: HookReference, orgId: string): Promise<Webhook | undefined> {
    const embedded = reference.hook as Partial<Webhook>;
    const stored = embedded.id ? await this.deps.storedHook(String(embedded.id), orgId) : undefined;
    if (embedded.id && !stored) {
      this.deps.warn(
        `hook reference for ${reference.event_name} names webhook ${String(embedded.id)}, which organisation ${orgId} does not have; skipped`,
      );
      return undefined;
    }
    const hook = {
      method: 'POST',
      header_map: {},
      template_path: '',
      event_timeout: 0,
      ...embedded,
      ...stored,
    } as Webhook;
    if (!hook.target_path) {
      this.deps.warn(`hook reference for ${reference.event_name} has no target_path; skipped`);
      return undefined;
    }
    hook.id ||= `inline:${hook.target_path}`;
    return hook;
  }

  private async deliver(hook: Webhook, event: GatewayEvent, traceHeaders?: Record<string, string>): Promise<void> {
    let body: { text: string; type: string };
    try {
      body = await this.renderBody(hook, event);
    } catch (err) {
      // The tenant sees the delivery log: the reason stays in the server's log.
      const template = `template "${hook.template_path}" could not be rendered`;
      this.deps.warn(`webhook ${hook.id}: ${template}: ${(err as Error).message}`);
      await this.record(hook, event, 'failed', 0, 0, template);
      return;
    }
    let attempts = 0;
    let lastError = '';
    let lastCode = 0;
    for (;;) {
      attempts++;
      const headers: Record<string, string> = { 'content-type': body.type, ...hook.header_map };
      const span =
        this.deps.tracing && startDeliverySpan(this.deps.tracing, hook, event, traceHeaders, headers, attempts);
      try {
        const response = await request(hook.target_path, {
          dispatcher: hookAgent,
          method: (hook.method || 'POST').toUpperCase() as 'POST',
          headers,
          body: hook.method?.toUpperCase() === 'GET' ? undefined : body.text,
          headersTimeout: this.deps.attemptTimeoutMs ?? 5000,
          bodyTimeout: this.deps.attemptTimeoutMs ?? 5000,
        });
        await response.body.dump();
        lastCode = response.statusCode;
        if (span) endDeliverySpan(span, response.statusCode);
        if (response.statusCode < 400) return this.record(hook, event, 'delivered', attempts, lastCode, '');
        lastError = `HTTP ${response.statusCode}`;
      } catch (err) {
        lastError = (err as Error).message;
        if (span) endDeliverySpan(span, err as Error);
      }
      if (attempts > this.backoffMs.length) break;
      await new Promise((resolve) => setTimeout(resolve, this.backoffMs[attempts - 1]));
    }
    this.deps.warn(`webhook ${hook.id} failed for ${event.event} after ${attempts} attempts: ${lastError}`);
    await this.record(hook, event, 'failed', attempts, lastCode, lastError);
  }

  /**
   * The template's rendering, or the event as JSON without a template, and (as the reference
   * gateway does when a template does not load) when the template can not be read: outside the
   * templates folder, missing, or the folder itself missing. The server logs that once per
   * template, with the folder; the tenant's delivery log never shows a server path.
   */
  private async renderBody(hook: Webhook, event: GatewayEvent): Promise<{ text: string; type: string }> {
    const json = { text: JSON.stringify(event), type: 'application/json' };
    if (!hook.template_path) return json;
    const template = await readTemplate(this.deps.templatesFolder, hook.template_path);
    if ('text' in template) {
      this.templateWarnings.delete(hook.template_path);
      return { text: render(template.text, event), type: 'text/plain' };
    }
    if (!this.templateWarnings.has(hook.template_path)) {
      if (this.templateWarnings.size >= MAX_TEMPLATE_WARNINGS) this.templateWarnings.clear();
      this.templateWarnings.add(hook.template_path);
      const { problem, detail } = template;
      const what = `template "${hook.template_path}" ${problem} (${detail})`;
      this.deps.warn(`webhook ${hook.id}: ${what}; events go as JSON instead`);
    }
    return json;
  }

  private record(
    hook: Webhook,
    event: GatewayEvent,
    status: 'delivered' | 'failed',
    attempts: number,
    code: number,
    error: string,
  ): Promise<void> {
    return this.deps
      .log({
        hook_id: hook.id,
        org_id: event.org_id,
        api_id: event.api_id,
        event: event.event,
        status,
        attempts,
        response_code: code,
        error,
      })
      .catch((err: unknown) =>
        this.deps.warn(`could not record the delivery of webhook ${hook.id}: ${errorMessage(err)}`),
      );
  }
}

function render(template: string, event: GatewayEvent): string {
  const fields: Record<string, unknown> = {
    ...event,
    Event: event.event,
    Time: event.time,
    APIID: event.api_id,
    OrgID: event.org_id,
    Key: event.key,
    Message: event.message,
    Origin: event.origin,
  };
  return template.replace(/\{\{\s*\.?([A-Za-z_][\w.]*)\s*\}\}/g, (_match, path: string) => {
    const value = path
      .split('.')
      .reduce<unknown>(
        (at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined),
        fields,
      );
    return value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/**
 * Earlier releases emitted the rate-limit event as `RateLimitExceeded`; definitions saved then
 * still fire on the reference's `RatelimitExceeded`.
 */
const RENAMED_EVENTS: Readonly<Record<string, string>> = { RateLimitExceeded: 'RatelimitExceeded' };

function eventNamed(name: string): string {
  return RENAMED_EVENTS[name] ?? name;
}
