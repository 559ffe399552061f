import { strict as assert } from 'node:assert';
import { inspect } from 'node:util';
import { explainListenFailure } from '../../../lib/http/listen';

function systemError(code: string): Error {
  return Object.assign(new Error(`listen ${code}: 127.0.0.1:80`), { code, syscall: 'listen' });
}

/** What a port the node can not have says, for each reason the system gives. */
describe('a port the node can not have', () => {
  const cases: Array<[string, string, string]> = [
    ['in use', 'EADDRINUSE', 'GW_DASHBOARD_PORT 80 is in use (another gw running? stop it or choose another port)'],
    [
      'below 1024 without the right',
      'EACCES',
      'GW_DASHBOARD_PORT 80: permission denied ' +
        '(ports below 1024 need root or CAP_NET_BIND_SERVICE; choose a port above 1023)',
    ],
    [
      'on an address of another machine',
      'EADDRNOTAVAIL',
      'GW_HOST 10.9.9.9 is not an address of this machine (use one of its addresses, or 0.0.0.0 for all)',
    ],
    [
      'on a host name nobody knows',
      'ENOTFOUND',
      'GW_HOST 10.9.9.9 is not a known host name (use an address of this machine, or 0.0.0.0 for all)',
    ],
  ];
  for (const [what, code, message] of cases) {
    it(`${what} (${code})`, () => {
      const err = explainListenFailure(systemError(code), 'GW_DASHBOARD_PORT', 80, '10.9.9.9');
      assert.equal(err.message, message);
      // What Moleculer's "Unable to start all services" log prints of it: the line, no trace.
      assert.doesNotMatch(inspect(err), /\n\s+at /);
    });
  }
});
