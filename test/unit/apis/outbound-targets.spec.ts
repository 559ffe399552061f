import { strict as assert } from 'node:assert';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { installOutboundPolicy, outboundPolicy } from '../../../lib/net/outbound-policy';
import { assertOutboundTargets } from '../../../services/apis/lib/outbound-targets';

const PRIVATE = 'names a loopback or private-network address, which gw does not call';
const PUBLIC = 'http://93.184.216.34/';

type Hooks = Array<{ event_name: string; hook: Record<string, unknown> }>;

function definition(extra: Record<string, unknown> = {}, proxy: Record<string, unknown> = {}): ApiDefinition {
  const base = { api_id: 'a', name: 'a', proxy: { listen_path: '/a/', target_url: PUBLIC, ...proxy }, ...extra };
  return base as unknown as ApiDefinition;
}

const dataSources = (...sources: unknown[]) => definition({ graphql: { engine: { data_sources: sources } } });

/** The save's 400 message, or undefined when the definition passes. */
async function problem(def: ApiDefinition, hooks?: Hooks): Promise<string | undefined> {
  try {
    await assertOutboundTargets(def, hooks);
    return undefined;
  } catch (err) {
    assert.equal((err as { type?: string }).type, 'GW_ERR_APIS_INVALID');
    return (err as Error).message;
  }
}

describe('apis: outbound targets of a definition checked when saved', () => {
  let release: () => void;
  before(() => (release = installOutboundPolicy(outboundPolicy('deny-private', ['10.9.0.0/16']))));
  after(() => release());

  const nestedNats = { nats: { urls: ['nats://93.184.216.34:4222,nats://172.20.0.1:4222'] } };
  const stream = { streams: { s: { input: { http_server: {} }, output: { broker: { outputs: [nestedNats] } } } } };
  const cases: Array<[string, ApiDefinition, string | undefined, Hooks?]> = [
    ['a public target', definition(), undefined],
    ['an allow-listed target', definition({}, { target_url: 'http://10.9.1.1/' }), undefined],
    [
      'a load-balanced target',
      definition({}, { enable_load_balancing: true, target_list: [PUBLIC, 'http://192.168.0.7:81/'] }),
      `proxy.target_list[1]: 'http://192.168.0.7:81/' ${PRIVATE}`,
    ],
    [
      'a service-discovery endpoint',
      definition({}, { service_discovery: { use_discovery_service: true, query_endpoint: 'http://[fd00::5]/nodes' } }),
      `proxy.service_discovery.query_endpoint: 'http://[fd00::5]/nodes' ${PRIVATE}`,
    ],
    [
      'an OAuth key-change notification',
      definition({ notifications: { oauth_on_keychange_url: 'http://100.64.0.1/n' } }),
      `notifications.oauth_on_keychange_url: 'http://100.64.0.1/n' ${PRIVATE}`,
    ],
    [
      'a combined-graph REST data source',
      dataSources({ kind: 'REST', config: { url: 'http://10.0.0.3/users' } }),
      `data source '#0': config.url 'http://10.0.0.3/users' ${PRIVATE}`,
    ],
    [
      'a combined-graph Kafka broker',
      dataSources({ kind: 'Kafka', name: 'k', config: { broker_addresses: ['93.184.216.34:9092', '127.0.0.1:9092'] } }),
      `data source 'k': config.broker_addresses[1] '127.0.0.1:9092' ${PRIVATE}`,
    ],
    [
      'a stream broker nested in an output',
      definition({ streaming: stream }),
      `streaming.streams.s.output.broker.outputs[0].nats.urls[0]: 'nats://172.20.0.1:4222' ${PRIVATE}`,
    ],
    [
      'an inline webhook',
      definition(),
      `hook_references[0].hook.target_path: 'http://127.0.0.1:9/h' ${PRIVATE}`,
      [{ event_name: 'QuotaExceeded', hook: { target_path: 'http://127.0.0.1:9/h' } }],
    ],
    [
      'a link-local target, in any mode',
      definition({}, { target_url: 'http://169.254.169.254/' }),
      "proxy.target_url: 'http://169.254.169.254/' names a link-local, cloud-metadata or multicast address, which gw does not call",
    ],
  ];
  for (const [what, def, expected, hooks] of cases) {
    it(`${expected ? 'refuses' : 'accepts'} ${what}`, async () => assert.equal(await problem(def, hooks), expected));
  }

  it("under 'allow', only the always-refused ranges", async () => {
    const releaseAllow = installOutboundPolicy(outboundPolicy('allow'));
    try {
      assert.equal(await problem(definition({}, { target_url: 'http://127.0.0.1:8080/' })), undefined);
      assert.match((await problem(definition({}, { target_url: 'http://[::ffff:a9fe:a9fe]/' }))) ?? '', /link-local/);
    } finally {
      releaseAllow();
    }
  });
});
