import { strict as assert } from 'node:assert';
import { streamingProblems } from '../../../lib/streams/config-check';
import { streamMappingCheck } from '../../../services/streams/lib/mapping-check';

const check = (streams: unknown) => streamingProblems({ streams }, '/x-gw-streaming', streamMappingCheck);
const ok = { input: { http_server: { path: '/in' } }, output: { http_server: { stream_path: '/sse' } } };

describe('x-gw-streaming checks', () => {
  it('accepts the connectors and processors of the issue', () => {
    assert.deepEqual(
      check({
        a: ok,
        b: {
          input: {
            broker: {
              inputs: [
                {
                  http_server: {
                    path: '/b',
                    allowed_verbs: ['POST', 'PUT'],
                    timeout: '2s',
                    sync_response: { status: '201' },
                  },
                },
                { http_client: { url: 'http://example.com/feed', rate_limit: 'rl', stream: { enabled: true } } },
              ],
            },
          },
          pipeline: {
            processors: [
              { mapping: 'root = this' },
              {
                branch: {
                  request_map: 'root.id = this.id',
                  processors: [{ http: { url: 'https://example.com/x', verb: 'POST' } }],
                  result_map: 'root.x = this',
                },
              },
              {
                switch: [
                  { check: 'this.a == 1', processors: [{ bloblang: 'root = "one"' }], fallthrough: true },
                  { processors: [] },
                ],
              },
              { switch: { cases: [{ check: 'true' }] } },
            ],
          },
          output: {
            label: 'out',
            broker: {
              pattern: 'greedy',
              outputs: [
                {
                  http_client: {
                    url: 'http://example.com',
                    retries: 2,
                    successful_on: [202],
                    drop_on: [400],
                    propagate_response: true,
                  },
                },
                { portal_webhook: { event_type: 'e', portal_url: 'http://portal', secret: 's' } },
              ],
            },
          },
          rate_limit_resources: [{ label: 'rl', local: { count: 10, interval: '1s' } }],
        },
      }),
      [],
    );
  });

  const table: Array<[string, unknown, RegExp]> = [
    ['no streams', {}, /\/x-gw-streaming\/streams: must be an object naming at least one stream/],
    ['missing output', { s: { input: ok.input } }, /\/streams\/s\/output: is required/],
    [
      'two input types',
      { s: { ...ok, input: { http_server: {}, http_client: { url: 'http://a' } } } },
      /\/streams\/s\/input: must name exactly one input type/,
    ],
    [
      'unknown output',
      { s: { ...ok, output: { kafka_plus: {} } } },
      /\/streams\/s\/output\/kafka_plus: unknown output type/,
    ],
    [
      'bad verb',
      { s: { ...ok, output: { http_client: { url: 'http://a', verb: 'FETCH' } } } },
      /\/output\/http_client\/verb: must be one of/,
    ],
    ['missing url', { s: { ...ok, output: { http_client: {} } } }, /\/output\/http_client\/url: is required/],
    [
      'unknown rate limit',
      { s: { ...ok, input: { http_client: { url: 'http://a', rate_limit: 'nope' } } } },
      /\/input\/http_client\/rate_limit: names no rate_limit_resources entry/,
    ],
    [
      'bad mapping in a switch case',
      { s: { ...ok, pipeline: { processors: [{ switch: [{ check: 'this.a ==' }] }] } } },
      /\/pipeline\/processors\/0\/switch\/0\/check: the mapping does not parse/,
    ],
    [
      'bad broker child',
      { s: { ...ok, output: { broker: { outputs: [{ nowhere: {} }] } } } },
      /\/output\/broker\/outputs\/0\/nowhere: unknown output type/,
    ],
    [
      'path without slash',
      { s: { ...ok, input: { http_server: { path: 'in' } } } },
      /\/input\/http_server\/path: a path must start with '\/'/,
    ],
    [
      'metadata url',
      { s: { ...ok, output: { http_client: { url: 'http://169.254.169.254/' } } } },
      /may not point at a cloud metadata address/,
    ],
  ];
  for (const [name, streams, expected] of table) {
    it(`refuses ${name}`, () => {
      const problems = check(streams);
      assert.ok(
        problems.some((p) => expected.test(p)),
        JSON.stringify(problems),
      );
    });
  }
});
