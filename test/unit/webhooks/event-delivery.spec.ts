import { strict as assert } from 'node:assert';
import type { GatewayEvent } from '../../../contracts/events';
import { EventDelivery } from '../../../services/webhooks/lib/event-delivery';
import { eventually } from '../../support/eventually';
import { startUpstream, type Upstream } from '../../support/upstream';

describe('webhooks: event cool-downs', () => {
  const clock = { now: 1_700_000_000_000 };
  let upstream: Upstream;
  let delivery: EventDelivery;
  const logged: string[] = [];

  beforeEach(async () => {
    upstream = await startUpstream();
    delivery = new EventDelivery({
      hookReferences: async () => ({
        orgId: 'org',
        references: [
          {
            event_name: 'QuotaExceeded',
            event_timeout: 10,
            hook: { target_path: `${upstream.url}/hook`, method: 'POST' },
          },
        ],
      }),
      storedHook: async () => undefined,
      templatesFolder: '/nonexistent',
      log: async (entry) => void logged.push(entry.status),
      warn: () => undefined,
      now: () => clock.now,
      backoffMs: [],
    });
  });
  afterEach(async () => {
    await eventually(() => assert.equal(logged.length, upstream.received.length), 5000);
    logged.length = 0;
    await upstream.close();
  });

  const event = (key: string): GatewayEvent => ({
    event: 'QuotaExceeded',
    time: new Date(clock.now).toISOString(),
    api_id: 'api',
    org_id: 'org',
    key,
    message: 'Key Quota Limit Exceeded',
    origin: 'node',
  });

  it('sends the same event for the same key once per event_timeout', async () => {
    await delivery.handle(event('k1'));
    clock.now += 5_000;
    await delivery.handle(event('k1'));
    await delivery.handle(event('k2'));
    clock.now += 5_000;
    await delivery.handle(event('k1'));
    await eventually(() =>
      assert.deepEqual(
        upstream.received.map((r) => JSON.parse(r.body).key),
        ['k1', 'k2', 'k1'],
      ),
    );
  });

  it('forgets cool-downs that ran out instead of keeping one per key ever seen', async () => {
    for (let i = 0; i < 500; i++) await delivery.handle(event(`key-${i}`));
    assert.equal(delivery.coolDowns, 500);
    await eventually(() => assert.equal(upstream.received.length, 500), 5000);
    clock.now += 61_000;
    await delivery.handle(event('late'));
    assert.equal(delivery.coolDowns, 1, 'only the cool-down still running is held');
  });
});

describe('webhooks: events from the bus', () => {
  it('ignores an event of the wrong shape without asking for hooks', async () => {
    let asked = 0;
    const delivery = new EventDelivery({
      hookReferences: async () => (asked++, { orgId: 'o', references: [] }),
      storedHook: async () => undefined,
      templatesFolder: '/nonexistent',
      log: async () => undefined,
      warn: () => undefined,
    });
    for (const bad of [null, 'x', {}, { event: 5, api_id: 'a' }, { event: 'QuotaExceeded', api_id: 7 }])
      await delivery.handle(bad as unknown as GatewayEvent);
    assert.equal(asked, 0);
    await delivery.handle({
      event: 'QuotaExceeded',
      api_id: 'a',
      org_id: 'o',
      key: 'k',
      time: '',
      message: '',
      origin: '',
    });
    assert.equal(asked, 1);
  });
});

describe('webhooks: the rate-limit event', () => {
  let receiver: Upstream;
  afterEach(() => receiver.close());

  it('fires on RatelimitExceeded, the reference name, also for references saved as RateLimitExceeded', async () => {
    receiver = await startUpstream();
    const hook = (path: string) => ({ target_path: `${receiver.url}${path}`, method: 'POST' });
    const delivery = new EventDelivery({
      hookReferences: async () => ({
        orgId: 'org',
        references: [
          { event_name: 'RatelimitExceeded', hook: hook('/reference-name') },
          { event_name: 'RateLimitExceeded', hook: hook('/earlier-name') },
          { event_name: 'QuotaExceeded', hook: hook('/other-event') },
        ],
      }),
      storedHook: async () => undefined,
      templatesFolder: '/nonexistent',
      log: async () => undefined,
      warn: () => undefined,
      backoffMs: [],
    });
    await delivery.handle({
      event: 'RatelimitExceeded',
      time: '2024-01-01T00:00:00Z',
      api_id: 'api',
      org_id: 'org',
      key: 'k',
      message: 'Key Rate Limit Exceeded',
      origin: 'node',
    });
    await eventually(() => assert.equal(receiver.received.length, 2), 5000);
    assert.deepEqual(receiver.received.map((r) => r.url).sort(), ['/earlier-name', '/reference-name']);
  });
});

describe('webhooks: a template that can not be read', () => {
  let receiver: Upstream;
  afterEach(() => receiver.close());

  it('sends the event as JSON when the templates folder is missing, logs no path, warns once', async () => {
    receiver = await startUpstream();
    const logged: Array<{ status: string; error: string }> = [];
    const warnings: string[] = [];
    const folder = '/nonexistent-gw-templates/webhooks';
    const hook = { target_path: `${receiver.url}/hook`, template_path: 'alert.txt' };
    const delivery = new EventDelivery({
      hookReferences: async () => ({
        orgId: 'org',
        references: [{ event_name: 'AuthFailure', hook }],
      }),
      storedHook: async () => undefined,
      templatesFolder: folder,
      log: async (entry) => void logged.push(entry),
      warn: (message) => void warnings.push(message),
      backoffMs: [],
    });
    const event: GatewayEvent = {
      event: 'AuthFailure',
      time: '2024-01-01T00:00:00Z',
      api_id: 'api',
      org_id: 'org',
      key: 'k',
      message: 'Auth failed',
      origin: 'node',
    };
    await delivery.handle(event);
    await delivery.handle(event);
    await eventually(() => assert.equal(logged.length, 2), 5000);

    assert.deepEqual(
      receiver.received.map((r) => [r.headers['content-type'], JSON.parse(r.body)]),
      [
        ['application/json', event],
        ['application/json', event],
      ],
    );
    assert.deepEqual(
      logged.map(({ status, error }) => ({ status, error })),
      [
        { status: 'delivered', error: '' },
        { status: 'delivered', error: '' },
      ],
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /template "alert\.txt" was not found .*nonexistent-gw-templates/);
  });
});
