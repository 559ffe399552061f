import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { PathMatcher } from '../../../../lib/patterns/endpoint-pattern';
import { pathPattern } from '../endpoint-rules';
import { readVersionSettings } from '../versions';

interface EndpointRoute {
  pattern: PathMatcher;
  /** '' = any method */
  method: string;
  /** the endpoint as the definition writes it, without the anchors */
  text: string;
}

/** Per definition: its endpoints in the order they are declared (a definition is replaced, never changed). */
const routesOf = new WeakMap<ApiDefinition, EndpointRoute[]>();

/** At most this many endpoints are looked at per API: a span's route is a label, not a router. */
const MAX_ROUTES = 500;

/**
 * The `http.route` of a traced request: the listen path and, when the request's path falls
 * under an endpoint the definition declares (any `extended_paths` list of any version; an OAS
 * API's operations are written there), that endpoint's pattern, the first declared winning as
 * an OAS operation listed first does. Computed when the span ends, only with tracing on.
 */
export function routeOf(definition: ApiDefinition, method: string, relativePath: string): string {
  const listenPath = definition.proxy.listen_path;
  let routes = routesOf.get(definition);
  if (!routes) routesOf.set(definition, (routes = endpointRoutes(definition)));
  for (const route of routes) {
    if ((route.method === '' || route.method === method) && route.pattern.test(relativePath))
      return `${listenPath.replace(/\/+$/, '')}${route.text}`;
  }
  return listenPath;
}

function endpointRoutes(definition: ApiDefinition): EndpointRoute[] {
  const routes: EndpointRoute[] = [];
  const seen = new Set<string>();
  for (const version of readVersionSettings(definition).versions.values()) {
    const ignoreCase = version.ignore_endpoint_case === true;
    const lists = (version.extended_paths ?? {}) as Record<string, unknown>;
    for (const list of Object.values(lists)) {
      if (!Array.isArray(list)) continue;
      for (const entry of list as Array<Record<string, unknown>>) {
        if (routes.length >= MAX_ROUTES) return routes;
        if (typeof entry?.path !== 'string' || entry.path === '') continue;
        const method = typeof entry.method === 'string' ? entry.method.toUpperCase() : '';
        const key = `${method} ${entry.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const text = entry.path.replace(/^\^/, '').replace(/\$$/, '');
        routes.push({
          pattern: pathPattern(entry.path, ignoreCase),
          method,
          text: text.startsWith('/') ? text : `/${text}`,
        });
      }
    }
  }
  return routes;
}
