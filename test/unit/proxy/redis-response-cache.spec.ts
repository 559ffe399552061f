import { strict as assert } from 'node:assert';
import type { LoggerInstance } from 'moleculer';
import { RedisResponseCache } from '../../../services/proxy/pipeline/cache/response-cache';

/** A Redis failure while dropping an API's entries is logged and reported, never thrown. */
describe('RedisResponseCache.invalidate when Redis fails', () => {
  it('resolves false and logs the failure with a closed client', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) } as unknown as LoggerInstance;
    const cache = new RedisResponseCache('redis://127.0.0.1:1', logger);
    await cache.close();
    assert.equal(await cache.invalidate('api-1'), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /could not drop the cached responses of API api-1/);
  });
});
