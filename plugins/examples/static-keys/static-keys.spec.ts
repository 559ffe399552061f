import { strict as assert } from 'node:assert';
import { runHook } from '../../sdk/testkit';
import staticKeys from './index';

const api = { config: { static_keys: { 'key-alice': { owner: 'alice' } } } };

describe('example plugin: static-keys', () => {
  it('answers 401 without a key', async () => {
    const outcome = await runHook(staticKeys, 'auth_check', { api });
    assert.deepEqual(outcome.reply, { status: 401, body: { error: 'Authorization field missing' } });
    assert.equal(outcome.allowed, false);
  });

  it('answers 403 for an unknown key', async () => {
    const outcome = await runHook(staticKeys, 'auth_check', {
      api,
      request: { headers: { 'x-api-key': 'key-mallory' } },
    });
    assert.equal(outcome.reply?.status, 403);
    assert.equal(outcome.allowed, false);
  });

  it('does not treat inherited object properties as keys', async () => {
    const outcome = await runHook(staticKeys, 'auth_check', {
      api,
      request: { headers: { 'x-api-key': 'constructor' } },
    });
    assert.equal(outcome.reply?.status, 403);
  });

  it('lets a known key through with its owner, and keeps the key from the upstream', async () => {
    const outcome = await runHook(staticKeys, 'auth_check', {
      api,
      request: { headers: { 'x-api-key': 'key-alice' } },
    });
    assert.equal(outcome.reply, undefined);
    assert.equal(outcome.allowed, true);
    assert.deepEqual(outcome.session, { owner: 'alice' });
    assert.equal(outcome.request.headers['x-api-key'], undefined);
    assert.equal(outcome.request.headers['x-key-owner'], 'alice');
  });
});
