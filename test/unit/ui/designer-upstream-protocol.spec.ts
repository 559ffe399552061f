import { strict as assert } from 'node:assert';
import { upstreamHttp2 } from '../../../ui/src/designer/upstream-protocol';

/** Which HTTP/2 choice the API designer offers for a target URL. */
describe('ui: designer upstream HTTP/2 choice by target scheme', () => {
  const cases: Array<[string, ReturnType<typeof upstreamHttp2>]> = [
    ['h2c://grpc.internal:50051', 'implied'],
    ['H2C://grpc.internal:50051', 'implied'],
    ['https://orders.example.com', 'optional'],
    ['  HTTPS://orders.example.com/v1', 'optional'],
    ['http://orders.internal:8080', 'unavailable'],
    ['http://', 'unavailable'],
    ['', 'unavailable'],
    ['orders.internal:8080', 'unavailable'],
    ['ftp://files.test', 'unavailable'],
    ['https:orders.example.com', 'unavailable'],
  ];
  for (const [target, expected] of cases) {
    it(`${JSON.stringify(target)} → ${expected}`, () => assert.equal(upstreamHttp2(target), expected));
  }
});
