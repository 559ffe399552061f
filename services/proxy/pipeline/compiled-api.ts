import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { EndpointRules } from './endpoint-rules';
import type { HeaderTransform } from './header-transform';
import type { RequestContext } from './request-context';
import type { ParsedTarget } from './target';
import type { PersistedQueryLookup } from './persisted-queries';
import type { LoadedPlugins } from './plugins/plugin-loader';

/** A version of an API, compiled once when the definition arrives. */
export interface CompiledVersion {
  name: string;
  /** epoch ms after which the version is refused; undefined = never */
  expiresAt: number | undefined;
  rules: EndpointRules;
  requestHeaders: HeaderTransform | undefined;
  responseHeaders: HeaderTransform | undefined;
  /** `global_size_limit` in bytes; 0 = none */
  sizeLimit: number;
  target: ParsedTarget;
  /** the upstream hard timeout of a request, in ms (`extended_paths.hard_timeouts` or the gateway default) */
  timeoutFor(method: string, relativePath: string): number;
  /** the first enabled `extended_paths.rate_limit` entry matching the request, if any */
  rateLimitFor(method: string, relativePath: string): EndpointRateLimit | undefined;
  readonly hasEndpointRateLimits: boolean;
  /** the `extended_paths.persist_graphql` entry serving the request, if any */
  persistedQueryFor: PersistedQueryLookup | undefined;
}

export interface EndpointRateLimit {
  /** position in `extended_paths.rate_limit`: each entry has its own counter */
  index: number;
  rate: number;
  per: number;
}

/** An API definition turned, once, into the function that serves its requests. */
export interface CompiledApi {
  definition: ApiDefinition;
  plugins: LoadedPlugins;
  /** what /gw/health says about parts of this API the node can not run yet (graphql-engine's notices) */
  notices?: readonly string[];
  /** runs the API's chain for one request; rejects only on a bug or a failing plugin */
  handle(ctx: RequestContext): void | Promise<void>;
}
