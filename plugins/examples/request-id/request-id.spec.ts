import { strict as assert } from 'node:assert';
import { runHook } from '../../sdk/testkit';
import requestId from './index';

describe('example plugin: request-id', () => {
  it('adds a request id upstream when the client sent none', async () => {
    const outcome = await runHook(requestId, 'pre');
    assert.match(String(outcome.request.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    assert.equal(typeof outcome.state['request-id.started'], 'number');
  });

  it("keeps the client's request id", async () => {
    const outcome = await runHook(requestId, 'pre', { request: { headers: { 'X-Request-Id': 'abc-123' } } });
    assert.equal(outcome.request.headers['x-request-id'], 'abc-123');
  });

  it('returns the id and the upstream time on the response', async () => {
    const state = { 'request-id.started': performance.now() - 5 };
    const outcome = await runHook(requestId, 'response', {
      request: { headers: { 'x-request-id': 'abc-123' } },
      state,
      response: { status: 200 },
    });
    assert.equal(outcome.response!.headers['x-request-id'], 'abc-123');
    assert.ok(Number(outcome.response!.headers['x-upstream-time']) >= 5);
  });
});
