import { strict as assert } from 'node:assert';
import { gatewayUrlFor } from '../../../services/api/lib/gateway-url';

describe('api: the gateway URL the dashboard shows (gatewayUrlFor)', () => {
  const cases: Array<[string, string | undefined, string]> = [
    ['the host the browser used, at the gateway port', 'localhost:3000', 'http://localhost:8080'],
    ['an address without a port', '10.0.0.5', 'http://10.0.0.5:8080'],
    ['an IPv6 address keeps its brackets', '[::1]:3000', 'http://[::1]:8080'],
    ['no Host header: the bind address', undefined, 'http://127.0.0.1:8080'],
    ['a Host header that is not a host name: the bind address', 'evil.test/<script>:1', 'http://127.0.0.1:8080'],
  ];
  for (const [what, host, expected] of cases) {
    it(what, () => assert.equal(gatewayUrlFor(host === undefined ? {} : { host }, 8080, '127.0.0.1'), expected));
  }

  it('brackets an IPv6 bind address', () => assert.equal(gatewayUrlFor({}, 8080, '::1'), 'http://[::1]:8080'));
});
