import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import { parseTarget, type ParsedTarget } from '../target';
import type { HostHealth } from './host-health';
import { readDiscovery, ServiceDiscovery } from './service-discovery';

/**
 * Where an API's requests go when it names more than its one `target_url`: round robin over
 * `proxy.target_list` (`enable_load_balancing`) or over what service discovery found, skipping
 * the hosts known to be down. With `check_host_against_uptime_tests`, a single target that an
 * uptime test found down is refused too.
 */
export interface UpstreamTargets {
  /** the next target not in `tried` and not down; undefined when there is none */
  next(tried: ReadonlySet<string>): ParsedTarget | undefined | Promise<ParsedTarget | undefined>;
  /** the target refused a connection */
  refused(target: ParsedTarget): void;
}

export function compileUpstreamTargets(definition: ApiDefinition, health: HostHealth): UpstreamTargets | undefined {
  const discovery = readDiscovery(definition.proxy.service_discovery);
  if (discovery) {
    const sd = new ServiceDiscovery(discovery);
    const rotation = new Rotation(health);
    return {
      next(tried) {
        const urls = sd.urls();
        return urls instanceof Promise
          ? urls.then((list) => rotation.next(parsedAll(list), tried))
          : rotation.next(parsedAll(urls), tried);
      },
      refused(target) {
        health.refused(target.origin);
        sd.invalidate();
      },
    };
  }
  if (definition.proxy.enable_load_balancing === true) {
    const list = Array.isArray(definition.proxy.target_list)
      ? definition.proxy.target_list.filter((url): url is string => typeof url === 'string' && url.trim() !== '')
      : [];
    if (list.length === 0) throw new Error('proxy.target_list is empty and enable_load_balancing is on');
    const targets = list.map((url) => parseTarget(url.trim()));
    const rotation = new Rotation(health);
    return { next: (tried) => rotation.next(targets, tried), refused: (target) => health.refused(target.origin) };
  }
  return undefined;
}

/** Round robin; each target in the list is one turn (repeat a URL to weight it). */
class Rotation {
  private turn = 0;
  constructor(private readonly health: HostHealth) {}

  next(targets: ParsedTarget[], tried: ReadonlySet<string>): ParsedTarget | undefined {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(this.turn + i) % targets.length];
      if (tried.has(target.origin) || this.health.isDown(target.origin)) continue;
      this.turn = (this.turn + i + 1) % targets.length;
      return target;
    }
    return undefined;
  }
}

const parsedCache = new WeakMap<string[], ParsedTarget[]>();
function parsedAll(urls: string[]): ParsedTarget[] {
  let parsed = parsedCache.get(urls);
  if (!parsed) {
    parsed = urls.flatMap((url) => {
      try {
        return [parseTarget(url)];
      } catch {
        return [];
      }
    });
    parsedCache.set(urls, parsed);
  }
  return parsed;
}
