import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import { GATEWAY_EVENT_PREFIX, type GatewayEvent } from '../../contracts/events';
import {
  DRL_LOAD,
  type DrlLoadEvent,
  type LimiterCheckParams,
  type LimiterQuotaParams,
} from '../../contracts/limiter/actions';
import type { ServiceActions } from '../../lib/bus/actions';
import type { Runtime } from '../../lib/runtime';
import type { CounterStore } from './lib/counter-store';
import { DrlShare } from './lib/drl-share';
import { MemoryStore } from './lib/memory-store';
import { RateLimiter, type Algorithm } from './lib/rate-limiter';
import { RedisStore } from './lib/redis-store';
import { Smoother } from './lib/smoothing';
import { TokenBuckets } from './lib/token-buckets';

/**
 * Rate limits, quotas and smoothing for the gateway nodes. Counters live in memory (one node)
 * or in Redis (GW_REDIS_URL); the distributed rate limiter's shares come from the load every
 * limiter reports on the bus each second.
 */
export function limiterService(runtime: Runtime, clock: () => number = Date.now): ServiceSchema {
  const { config } = runtime;
  let store: CounterStore;
  let limiter: RateLimiter;
  let drl: DrlShare;
  let ticker: NodeJS.Timeout;
  const buckets = new TokenBuckets();
  const smoother = new Smoother();
  const algorithm: Algorithm = config.enableSentinelRateLimiter
    ? 'sentinel'
    : config.enableFixedWindowRateLimiter
      ? 'fixed-window'
      : 'drl';
  return {
    name: 'limiter',
    actions: {
      check: (ctx: Context<LimiterCheckParams>) => limiter.check(ctx.params),
      quotaState: async (ctx: Context<LimiterQuotaParams>) => {
        const { used, renewsAt } = await store.quotaState(ctx.params.counter, clock());
        return { quota_remaining: Math.max(0, ctx.params.max - used), quota_renews: Math.ceil(renewsAt / 1000) };
      },
    } satisfies ServiceActions<'limiter'>,
    events: {
      // The live limiter nodes change rarely: count them here, not on every request.
      '$services.changed'() {
        drl.setLiveNodes(limiterNodes(this.broker));
      },
      '$node.disconnected'() {
        drl.setLiveNodes(limiterNodes(this.broker));
      },
      [DRL_LOAD]: {
        handler(ctx: Context<DrlLoadEvent>) {
          drl.receive(ctx.params);
        },
      },
    },
    created() {
      const broker = this.broker;
      store = config.redisUrl
        ? new RedisStore(config.redisUrl, config.enableNonTransactionalRateLimiter)
        : new MemoryStore(clock);
      drl = new DrlShare(broker.nodeID, clock);
      limiter = new RateLimiter({
        algorithm,
        drlThreshold: config.drlThreshold,
        store,
        buckets,
        drl,
        smoother,
        now: clock,
        emit: (event, params, message, meta) => {
          const payload: GatewayEvent = {
            event,
            time: new Date(clock()).toISOString(),
            api_id: params.api_id,
            org_id: params.org_id,
            key: params.key_hash ?? '',
            message,
            origin: broker.nodeID,
            meta,
          };
          void broker.emit(`${GATEWAY_EVENT_PREFIX}${event}`, payload);
        },
      });
    },
    started() {
      // The gateway of this node checks limits on every request: in process, not over the broker.
      runtime.handOffs.provide('limiter', { check: (params) => limiter.check(params) });
      drl.setLiveNodes(limiterNodes(this.broker));
      let ticks = 0;
      ticker = setInterval(() => {
        void this.broker.broadcast(DRL_LOAD, drl.tick());
        buckets.sweep(clock(), 3600_000);
        if (++ticks % 60 === 0) smoother.sweep(clock());
      }, 1000);
      ticker.unref();
      this.logger.info(`rate limiter: ${algorithm}, counters in ${config.redisUrl ? 'Redis' : 'memory'}`);
    },
    async stopped() {
      runtime.handOffs.withdraw('limiter');
      clearInterval(ticker);
      await store.close();
    },
  };
}

function limiterNodes(broker: ServiceBroker): string[] {
  const services = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{
    name: string;
    nodeID: string;
  }>;
  return services.filter((service) => service.name === 'limiter').map((service) => service.nodeID);
}
