import type { CircuitBreaker } from './upstream-health/circuit-breaker';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { EndpointLookup } from './endpoint-entries';
import type { EndpointRules, ReplyAction } from './endpoint-rules';
import type { RequestValidator } from './request-validation';
import type { HeaderTransform } from './header-transform';
import type { RequestContext } from './request-context';
import type { ParsedTarget } from './target';
import type { PersistedQueryLookup } from './persisted-queries';
import type { LoadedPlugins } from './plugins/plugin-loader';
import type { UrlRewrite } from './rewrites/url-rewrite';
import type { CacheRules } from './cache/cache-rules';
import type { BodyTransform } from './body-transform/body-transform';
import type { VirtualEndpoint } from './virtual/virtual-endpoints';

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
  /** `extended_paths.size_limits`: the endpoint's own request size limit in bytes */
  sizeLimits: EndpointLookup<number> | undefined;
  /** `extended_paths.transform_headers`: the endpoint's request header changes */
  endpointRequestHeaders: EndpointLookup<HeaderTransform | undefined> | undefined;
  /** `extended_paths.transform_response_headers`: the endpoint's response header changes */
  endpointResponseHeaders: EndpointLookup<HeaderTransform | undefined> | undefined;
  /** `extended_paths.mock_response`: the endpoint is answered by the gateway */
  mockResponses: EndpointLookup<ReplyAction> | undefined;
  /** `extended_paths.circuit_breakers`: the endpoint's breaker on this node */
  breakers: EndpointLookup<CircuitBreaker> | undefined;
  /** `extended_paths.validate_json` and `validate_request`: checks of the request before it goes on */
  validators: EndpointLookup<RequestValidator[]> | undefined;
  /** `extended_paths.url_rewrites` */
  urlRewrites: EndpointLookup<UrlRewrite> | undefined;
  /** `extended_paths.method_transforms`: the method to use upstream */
  methodTransforms: EndpointLookup<string> | undefined;
  /** `extended_paths.internal`: endpoints only an internal loop may reach */
  internalEndpoints: EndpointLookup<true> | undefined;
  /** what of this version the response cache keeps; undefined when the API does not cache */
  cacheRules: CacheRules | undefined;
  /** `extended_paths.transform`: the request body's template */
  requestTransforms: EndpointLookup<BodyTransform> | undefined;
  /** `extended_paths.transform_response`: the response body's template */
  responseTransforms: EndpointLookup<BodyTransform> | undefined;
  /** `extended_paths.virtual`: endpoints answered by the tenant's JavaScript */
  virtualEndpoints: EndpointLookup<VirtualEndpoint> | undefined;
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
  /** stops what the API runs in the background (uptime tests, breaker timers) and frees what it holds beyond its requests (its tenant code's isolate), once it is no longer served */
  dispose?(): void;
}
