import type { Context, ServiceBroker, ServiceSchema } from 'moleculer';
import { GATEWAY_EVENT_PREFIX, type GatewayEvent } from '../../contracts/events';
import { KEYS_CHANGED, type KeysChangedEvent } from '../../contracts/keys/events';
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
import { SharedCounterStore } from './lib/shared/shared-counter-store';
import { SharedSmoother } from './lib/shared/shared-smoother';
import { SharedTokenBuckets } from './lib/shared/shared-token-buckets';
import { Smoother, type SmoothingStore } from './lib/smoothing';
import { TokenBuckets, type TokenBucketStore } from './lib/token-buckets';

/**
 * Rate limits, quotas and smoothing for the gateway nodes. Counters live in memory (one node), in
 * memory shared by the gateway workers of a node (their host), or in Redis (GW_REDIS_URL); the
 * distributed rate limiter's shares come from the load every limiter reports on the bus each second.
 */
export function limiterService(runtime: Runtime, clock: () => number = Date.now): ServiceSchema {
  const { config } = runtime;
  let state: LimiterState;
  let limiter: RateLimiter;
  let drl: DrlShare;
  let ticker: NodeJS.Timeout;
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
        const { used, renewsAt } = await state.store.quotaState(ctx.params.counter, clock());
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
      // A key changed with its quota reset (or was deleted): its counters start afresh here.
      [KEYS_CHANGED]: {
        async handler(ctx: Context<KeysChangedEvent>) {
          const counters = Array.isArray(ctx.params.reset_quotas) ? ctx.params.reset_quotas : [];
          for (const counter of counters) {
            await Promise.resolve(state.store.resetQuota(counter)).catch((err: unknown) =>
              this.logger.warn(`could not reset a quota counter: ${(err as Error).message}`),
            );
          }
        },
      },
      [DRL_LOAD]: {
        handler(ctx: Context<DrlLoadEvent>) {
          drl.receive(ctx.params);
        },
      },
    },
    created() {
      const broker = this.broker;
      state = limiterState(runtime, clock);
      const { store, buckets, smoother } = state;
      drl = new DrlShare(broker.nodeID, clock, state.hostId);
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
            // an organisation's event is about the organisation, as the reference gateway's
            key: params.scope === 'org' ? params.org_id : (params.key_hash ?? ''),
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
        state.buckets.sweep(clock(), 3600_000);
        if (++ticks % 60 === 0) state.smoother.sweep(clock());
      }, 1000);
      ticker.unref();
      this.logger.info(`rate limiter: ${algorithm}, counters in ${state.where}`);
    },
    async stopped() {
      runtime.handOffs.withdraw('limiter');
      clearInterval(ticker);
      await state.store.close();
    },
  };
}

interface LimiterState {
  store: CounterStore;
  buckets: TokenBucketStore;
  smoother: SmoothingStore;
  /** the DRL participant this node belongs to: its host when the host's workers share buckets */
  hostId?: string;
  where: string;
}

/**
 * Where counters, buckets and smoothing live. Redis wins when configured; a gateway worker whose
 * host made shared memory keeps all of them there, so the host's workers act as one node (and
 * count as one in the DRL); otherwise, this node's memory.
 */
function limiterState(runtime: Runtime, clock: () => number): LimiterState {
  const { config, host } = runtime;
  if (config.redisUrl)
    return {
      store: new RedisStore(config.redisUrl, config.enableNonTransactionalRateLimiter),
      buckets: new TokenBuckets(),
      smoother: new Smoother(),
      where: 'Redis',
    };
  if (host?.limiterMemory) {
    const store = new SharedCounterStore(host.limiterMemory, clock);
    return {
      store,
      buckets: new SharedTokenBuckets(store),
      smoother: new SharedSmoother(store),
      hostId: host.hostId,
      where: `shared memory of ${host.count} workers`,
    };
  }
  return { store: new MemoryStore(clock), buckets: new TokenBuckets(), smoother: new Smoother(), where: 'memory' };
}

function limiterNodes(broker: ServiceBroker): string[] {
  const services = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{
    name: string;
    nodeID: string;
  }>;
  return services.filter((service) => service.name === 'limiter').map((service) => service.nodeID);
}
