/**
 * Every configuration option of gw, declared once: its environment variable, its default and
 * its validation rule (fastest-validator syntax) side by side. `load-config.ts` reads them;
 * nothing else in the codebase touches `process.env`.
 *
 * The environment variable names are a fixed contract: operators set them (docs/configuration.md).
 */

export interface OptionDeclaration {
  env: string;
  default: unknown;
  rule: Record<string, unknown>;
  doc: string;
}

const port = { type: 'number', integer: true, min: 0, max: 65535, convert: true };

/** The fields an access log line can hold (GW_ACCESS_LOGS_TEMPLATE picks some; all without it). */
export const ACCESS_LOG_FIELDS = [
  'api_id',
  'api_key',
  'api_name',
  'client_ip',
  'host',
  'latency_total',
  'method',
  'org_id',
  'path',
  'protocol',
  'remote_addr',
  'status',
  'trace_id',
  'upstream_addr',
  'upstream_latency',
  'user_agent',
] as const;

export const OPTIONS = {
  /** @default 8080 */
  gatewayPort: {
    env: 'GW_GATEWAY_PORT',
    default: 8080,
    rule: port,
    doc: 'proxy listen port (the /gw API is here too)',
  },
  /** @default none: the gateway serves plain HTTP only */
  gatewayTlsPort: {
    env: 'GW_GATEWAY_TLS_PORT',
    default: undefined,
    rule: { ...port, optional: true },
    doc: 'HTTPS port of the gateway, beside GW_GATEWAY_PORT (same APIs); needs GW_GATEWAY_TLS_CERT_FILE and GW_GATEWAY_TLS_KEY_FILE, or GW_GATEWAY_TLS_CERT_ID',
  },
  /** @default none */
  gatewayTlsCertFile: {
    env: 'GW_GATEWAY_TLS_CERT_FILE',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'PEM certificate (and chain) of the HTTPS port',
  },
  /** @default none */
  gatewayTlsKeyFile: {
    env: 'GW_GATEWAY_TLS_KEY_FILE',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'PEM private key of the HTTPS port',
  },
  /** @default none */
  gatewayTlsCertId: {
    env: 'GW_GATEWAY_TLS_CERT_ID',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'id of a certificate (with its private key) in the certificate store, for the HTTPS port instead of the files',
  },
  /** @default true */
  gatewayHttp2: {
    env: 'GW_GATEWAY_HTTP2',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc: 'the HTTPS port speaks HTTP/2 to clients that offer it (ALPN h2), HTTP/1.1 to the others; false: HTTP/1.1 only',
  },
  /** @default false */
  gatewayH2c: {
    env: 'GW_GATEWAY_H2C',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'the plain gateway port also accepts cleartext HTTP/2 from clients that start with its preface (prior knowledge, as gRPC clients do); HTTP/1.1 is served as before',
  },
  /** @default 100 */
  http2MaxConcurrentStreams: {
    env: 'GW_HTTP2_MAX_CONCURRENT_STREAMS',
    default: 100,
    rule: { type: 'number', integer: true, min: 1, max: 10000, convert: true },
    doc: 'requests one HTTP/2 client connection may have open at once; more are refused (REFUSED_STREAM)',
  },
  /** @default 65 */
  http2IdleTimeout: {
    env: 'GW_HTTP2_IDLE_TIMEOUT',
    default: 65,
    rule: { type: 'number', min: 0.1, max: 86400, convert: true },
    doc: 'seconds an HTTP/2 connection with no request open stays open (then GOAWAY), as an idle HTTP/1.1 keep-alive connection',
  },
  /** @default 16384 */
  http2MaxHeaderListSize: {
    env: 'GW_HTTP2_MAX_HEADER_LIST_SIZE',
    default: 16384,
    rule: { type: 'number', integer: true, min: 1024, max: 1048576, convert: true },
    doc: 'bytes of request headers (names, values and 32 bytes each, as HTTP/2 counts them) an HTTP/2 request may carry; a larger one is refused with 431',
  },
  /** @default 10 */
  http2MaxSessionMemory: {
    env: 'GW_HTTP2_MAX_SESSION_MEMORY',
    default: 10,
    rule: { type: 'number', integer: true, min: 1, max: 1024, convert: true },
    doc: 'megabytes one HTTP/2 connection may hold (header tables, unsent frames, streams); past it new requests are refused',
  },
  /** @default 1000 */
  http2MaxInvalidFrames: {
    env: 'GW_HTTP2_MAX_INVALID_FRAMES',
    default: 1000,
    rule: { type: 'number', integer: true, min: 0, max: 100000, convert: true },
    doc: 'invalid frames an HTTP/2 connection may send before it is closed',
  },
  /** @default 100 */
  http2MaxRejectedStreams: {
    env: 'GW_HTTP2_MAX_REJECTED_STREAMS',
    default: 100,
    rule: { type: 'number', integer: true, min: 0, max: 100000, convert: true },
    doc: 'requests of one HTTP/2 connection refused (too many at once, too large headers) before the connection is closed',
  },
  /** @default 3000 */
  dashboardPort: { env: 'GW_DASHBOARD_PORT', default: 3000, rule: port, doc: 'dashboard, /api and /admin' },
  /** @default none: the dashboard's origin is read from each request (Host, and X-Forwarded-Proto behind a proxy) */
  dashboardUrl: {
    env: 'GW_DASHBOARD_URL',
    default: undefined,
    rule: {
      type: 'string',
      optional: true,
      pattern: /^https?:\/\/[^/?#\s]+\/?$/i,
      messages: {
        stringPattern: "GW_DASHBOARD_URL must be the dashboard's origin, such as 'https://dashboard.example.com'",
      },
    },
    doc:
      'the address browsers open the dashboard at (scheme://host[:port]); with https the login cookie is ' +
      '__Host-gw-session (Secure), and changes made with the cookie must come from a page of exactly this origin',
  },
  /** @default '127.0.0.1' */
  host: { env: 'GW_HOST', default: '127.0.0.1', rule: { type: 'string', empty: false }, doc: 'bind address' },
  /** @default generated at first start and kept in the data directory */
  secret: {
    env: 'GW_SECRET',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'x-gw-authorization secret',
  },
  /** @default generated at first start and kept in the data directory */
  adminSecret: {
    env: 'GW_ADMIN_SECRET',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'admin-auth secret',
  },
  /** @default 'sqlite:./data/gw.sqlite' */
  databaseUrl: {
    env: 'GW_DATABASE_URL',
    default: 'sqlite:./data/gw.sqlite',
    rule: {
      type: 'string',
      pattern: /^(sqlite:|mysql:\/\/|mariadb:\/\/)/,
      messages: { stringPattern: "GW_DATABASE_URL must start with 'sqlite:' or 'mysql://'" },
    },
    doc: "knex connection: 'sqlite:<file>' or 'mysql://user:pass@host:port/db'",
  },
  /** @default none: services talk in-process */
  transporter: {
    env: 'GW_TRANSPORTER',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'Moleculer transporter, e.g. nats://127.0.0.1:4222',
  },
  /** @default none: limiter counters stay in memory */
  redisUrl: {
    env: 'GW_REDIS_URL',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'shared store for limiter counters',
  },
  /** @default ['all'] */
  services: {
    env: 'GW_SERVICES',
    default: ['all'],
    rule: { type: 'array', items: 'string', min: 1 },
    doc: "services this node runs: 'all', 'gateway', 'management' or a comma list",
  },
  /** @default './apps' */
  appsDir: {
    env: 'GW_APPS_DIR',
    default: './apps',
    rule: { type: 'string', empty: false },
    doc: 'API definition files loaded at start and on reload',
  },
  /** @default './data' */
  dataDir: {
    env: 'GW_DATA_DIR',
    default: './data',
    rule: { type: 'string', empty: false },
    doc: 'where the generated secrets (and the default SQLite file) are kept',
  },
  /** @default './plugins' */
  pluginsDir: {
    env: 'GW_PLUGINS_DIR',
    default: './plugins',
    rule: { type: 'string', empty: false },
    doc: 'where relative plugin paths of custom_middleware are resolved',
  },
  /** @default [] */
  pluginPackages: {
    env: 'GW_PLUGIN_PACKAGES',
    default: [],
    rule: {
      type: 'array',
      items: {
        type: 'string',
        pattern: /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/,
        messages: { stringPattern: "'{actual}' is not an npm package name" },
      },
    },
    doc: 'installed npm packages a custom_middleware path may name (comma list, or a JSON array in GW_CONFIG); any other plugin must be a file inside GW_PLUGINS_DIR',
  },
  /** @default 'allow' */
  outboundPolicy: {
    env: 'GW_OUTBOUND_POLICY',
    default: 'allow',
    rule: { type: 'enum', values: ['allow', 'deny-private'] },
    doc:
      'addresses the gateway calls for an organisation (upstreams, webhooks, uptime checks, service discovery, ' +
      "stream and data-source connectors, imports): 'allow' refuses link-local, cloud-metadata and multicast " +
      "addresses only; 'deny-private' also refuses loopback (127.0.0.0/8, ::1), private networks (10.0.0.0/8, " +
      '172.16.0.0/12, 192.168.0.0/16, fc00::/7, fec0::/10), carrier-grade NAT (100.64.0.0/10) and other ' +
      'non-global blocks (192.0.0.0/24, 198.18.0.0/15), judged on the address connected to, after DNS',
  },
  /** @default [] */
  outboundAllow: {
    env: 'GW_OUTBOUND_ALLOW',
    default: [],
    rule: { type: 'array', items: { type: 'string', empty: false } },
    doc:
      'with GW_OUTBOUND_POLICY=deny-private, the private addresses still called (comma list, or a JSON array ' +
      'in GW_CONFIG): CIDRs (10.1.0.0/16), IP addresses and host names (db.internal; *.internal for every ' +
      'name under it); link-local and metadata addresses stay refused',
  },
  /** @default 30 */
  proxyTimeout: {
    env: 'GW_PROXY_TIMEOUT',
    default: 30,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds an upstream may take to answer before the gateway gives up with 504 (proxy_default_timeout)',
  },
  /** @default false */
  proxyEnableHttp2: {
    env: 'GW_PROXY_ENABLE_HTTP2',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc:
      'HTTP/2 (ALPN h2) to every https:// upstream, as an API does with proxy.transport.enable_http2 ' +
      '(proxy_enable_http2); an upstream that does not offer h2 is called over HTTP/1.1',
  },
  /** @default 30 */
  shutdownTimeout: {
    env: 'GW_SHUTDOWN_TIMEOUT',
    default: 30,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds a stopping node lets requests in flight finish before it closes the connections left',
  },
  /** @default true */
  hashKeys: {
    env: 'GW_HASH_KEYS',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc: 'store only a hash of each access key (hash_keys); the key is shown once, at creation',
  },
  /** @default false */
  enableHashedKeysListing: {
    env: 'GW_ENABLE_HASHED_KEYS_LISTING',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'let key lists return key hashes when keys are hashed (enable_hashed_keys_listing)',
  },
  /** @default false */
  enforceOrgQuotas: {
    env: 'GW_ENFORCE_ORG_QUOTAS',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'check organisation sessions (rate limit, quota, is_inactive) before authentication (enforce_org_quotas)',
  },
  /** @default false */
  enableSentinelRateLimiter: {
    env: 'GW_ENABLE_SENTINEL_RATE_LIMITER',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'sliding-log rate limiter: a full request log in the shared store, blocked requests included (spike arrest)',
  },
  /** @default false */
  enableFixedWindowRateLimiter: {
    env: 'GW_ENABLE_FIXED_WINDOW_RATE_LIMITER',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'fixed-window rate limiter: one counter with expiry per window',
  },
  /** @default false */
  enableNonTransactionalRateLimiter: {
    env: 'GW_ENABLE_NON_TRANSACTIONAL_RATE_LIMITER',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'sliding log: pipeline the Redis commands instead of running them atomically (faster, may admit a few extra requests under races)',
  },
  /** @default 5 */
  drlThreshold: {
    env: 'GW_DRL_THRESHOLD',
    default: 5,
    rule: { type: 'number', min: 0, convert: true },
    doc: 'distributed rate limiter: below threshold × gateway nodes requests per second a limit uses the shared-store sliding log',
  },
  /** @default 'quotas' */
  rateLimitResponseHeaders: {
    env: 'GW_RATE_LIMIT_RESPONSE_HEADERS',
    default: 'quotas',
    rule: { type: 'enum', values: ['quotas', 'rate_limits', 'none'] },
    doc: "what X-RateLimit-Limit/-Remaining/-Reset describe: the key's quota (the reference default), its rate limit, or nothing",
  },
  /** @default '{}' */
  additionalPermissions: {
    env: 'GW_ADDITIONAL_PERMISSIONS',
    default: '{}',
    rule: {
      type: 'string',
      pattern: /^\s*\{[\s\S]*\}\s*$/,
      messages: { stringPattern: 'GW_ADDITIONAL_PERMISSIONS must be a JSON object of permission id to label' },
    },
    doc: 'security.additional_permissions: the initial additional permissions of every organisation (JSON, id → label)',
  },
  /** @default false */
  openPolicyDebug: {
    env: 'GW_OPEN_POLICY_DEBUG',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'security.open_policy.debug: log every policy-engine decision of every organisation (the input without secrets); an organisation can also set open_policy.debug',
  },
  /** @default the project's templates folder */
  templatePath: {
    env: 'GW_TEMPLATE_PATH',
    default: '',
    rule: { type: 'string' },
    doc: "template_path: the GraphQL playground's page and assets are in its playground folder",
  },
  /** @default 10 */
  streamsDrainTimeout: {
    env: 'GW_STREAMS_DRAIN_TIMEOUT',
    default: 10,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds a stream that is replaced, removed or stopping keeps delivering the messages it holds before it gives them up (their inputs get an error)',
  },
  /** @default 50 */
  streamsMappingTimeBudget: {
    env: 'GW_STREAMS_MAPPING_TIME_BUDGET',
    default: 50,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc:
      'milliseconds one stream mapping (a mapping or bloblang processor, a branch map, a switch check, an ' +
      'interpolated field) may run on one message; past it the message fails with an error, counted and logged',
  },
  /** @default the project's dist/ui folder (built by `npm run build`) */
  dashboardUiPath: {
    env: 'GW_DASHBOARD_UI_PATH',
    default: '',
    rule: { type: 'string' },
    doc: 'folder of the built web dashboard (index.html and assets/) served at / on the dashboard port',
  },
  /** @default 15 */
  graphqlWsInitTimeout: {
    env: 'GW_GRAPHQL_WS_INIT_TIMEOUT',
    default: 15,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds a GraphQL WebSocket may stay open without connection_init',
  },
  /** @default 10485760 */
  maxResponseBodyBuffer: {
    env: 'GW_MAX_RESPONSE_BODY_BUFFER',
    default: 10 * 1024 * 1024,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'bytes of an upstream response body held for response plugins; a plugin that reads a larger body gets the client a 502',
  },
  /** @default 1048576 */
  mcpMaxMessageBytes: {
    env: 'GW_MCP_MAX_MESSAGE_BYTES',
    default: 1024 * 1024,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'bytes of one MCP POST body (a JSON-RPC message or a batch); a larger one gets the client a 413 with a JSON-RPC error',
  },
  /** @default 60 */
  mcpToolCallTimeout: {
    env: 'GW_MCP_TOOL_CALL_TIMEOUT',
    default: 60,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds an MCP tool call may take upstream; past it the client gets JSON-RPC error -32004',
  },
  /** @default 100 */
  mcpMaxSessionsPerKey: {
    env: 'GW_MCP_MAX_SESSIONS_PER_KEY',
    default: 100,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'MCP sessions one key may hold open on one MCP API (0: no bound); an initialize past it gets JSON-RPC error -32003 and never reaches the server',
  },
  /** @default 1800 */
  mcpSessionIdleTimeout: {
    env: 'GW_MCP_SESSION_IDLE_TIMEOUT',
    default: 1800,
    rule: { type: 'number', min: 0, convert: true },
    doc: 'seconds an MCP session may go unused before the gateway forgets it (0: never): its place is freed, the server gets a DELETE for it, and a request carrying its id gets a 404 so the client opens a new one',
  },
  /** @default 100 */
  virtualMaxResponseHeaders: {
    env: 'GW_VIRTUAL_MAX_RESPONSE_HEADERS',
    default: 100,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'headers a virtual endpoint may answer with; more gets the client a 500 naming the limit',
  },
  /** @default 16384 */
  virtualMaxResponseHeaderBytes: {
    env: 'GW_VIRTUAL_MAX_RESPONSE_HEADER_BYTES',
    default: 16 * 1024,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'bytes of all header names and values a virtual endpoint may answer with; more gets a 500',
  },
  /** @default 10485760 */
  virtualMaxResponseBodyBytes: {
    env: 'GW_VIRTUAL_MAX_RESPONSE_BODY_BYTES',
    default: 10 * 1024 * 1024,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'bytes of body a virtual endpoint may answer with; more gets the client a 500 naming the limit',
  },
  /** @default 67108864 */
  responseCacheBytes: {
    env: 'GW_RESPONSE_CACHE_BYTES',
    default: 64 * 1024 * 1024,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'bytes of cached upstream responses a gateway node keeps in memory when GW_REDIS_URL is not set (least recently used go first)',
  },
  /** @default 8388608 */
  graphqlDocumentCacheBytes: {
    env: 'GW_GRAPHQL_DOCUMENT_CACHE_BYTES',
    default: 8 * 1024 * 1024,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'bytes of GraphQL query text whose analyses a node keeps (least recently used go first)',
  },
  /** @default 10 */
  pageSize: {
    env: 'GW_PAGE_SIZE',
    default: 10,
    rule: { type: 'number', integer: true, min: 1, convert: true },
    doc: 'dashboard list page size (page_size)',
  },
  /** @default true */
  dashboardMetrics: {
    env: 'GW_DASHBOARD_METRICS',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc: 'serve Prometheus metrics at GET /metrics on the dashboard port, without authentication (keep the port private or turn this off)',
  },
  /** @default false */
  gatewayMetrics: {
    env: 'GW_GATEWAY_METRICS',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'serve Prometheus metrics at GET /metrics on the gateway port, before any API (an API listening on exactly /metrics is then not reachable there)',
  },
  /** @default none: /metrics wants the port's own secret (admin-auth secret on the dashboard, gateway secret on the gateway) */
  metricsToken: {
    env: 'GW_METRICS_TOKEN',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'the bearer token GET /metrics wants on both ports (Prometheus: `authorization.credentials`); without it each port wants its own secret',
  },
  /** @default 'info' */
  logLevel: {
    env: 'GW_LOG_LEVEL',
    default: 'info',
    rule: { type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    doc: "log level; 'silent' turns logging off",
  },
  /** @default `<host name>-<process id>-<random suffix of 6 base-36 characters>` */
  nodeId: {
    env: 'GW_NODE_ID',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'Moleculer node id, unique per process in a cluster',
  },
  /** @default '' */
  namespace: {
    env: 'GW_NAMESPACE',
    default: '',
    rule: { type: 'string' },
    doc: 'Moleculer namespace: nodes only see nodes of the same namespace',
  },
  /** @default 2 */
  heartbeatInterval: {
    env: 'GW_HEARTBEAT_INTERVAL',
    default: 2,
    rule: { type: 'number', integer: true, min: 1, convert: true },
    doc: 'seconds between the heartbeats a node sends to the cluster',
  },
  /** @default 6 */
  heartbeatTimeout: {
    env: 'GW_HEARTBEAT_TIMEOUT',
    default: 6,
    rule: { type: 'number', integer: true, min: 2, convert: true },
    doc: 'seconds without a heartbeat after which a node counts as gone (it stops receiving broadcasts until it is back)',
  },
  /** @default 10 */
  storeCheckInterval: {
    env: 'GW_STORE_CHECK_INTERVAL',
    default: 10,
    rule: { type: 'number', positive: true, convert: true },
    doc: "seconds between a gateway node's checks that its definitions and sessions match the store revision (a backstop for missed broadcasts)",
  },
  /** @default 600 */
  jwksCacheTimeout: {
    env: 'GW_JWKS_CACHE_TIMEOUT',
    default: 600,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds a gateway node keeps a fetched JSON Web Key Set when the API sets no `cache_timeout`',
  },
  /** @default 10 */
  jwksRefetchInterval: {
    env: 'GW_JWKS_REFETCH_INTERVAL',
    default: 10,
    rule: { type: 'number', positive: true, convert: true },
    doc: 'seconds between fetches of one key set for tokens naming a `kid` it does not have (key rotation is picked up at once; a flood of unknown `kid`s reaches the provider once per interval)',
  },
  /** @default 3600 */
  oauthTokenExpire: {
    env: 'GW_OAUTH_TOKEN_EXPIRE',
    default: 3600,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'seconds an OAuth access token lives (oauth_token_expire)',
  },
  /** @default 1209600 (14 days) */
  oauthRefreshTokenExpire: {
    env: 'GW_OAUTH_REFRESH_TOKEN_EXPIRE',
    default: 14 * 24 * 3600,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'seconds an OAuth refresh token lives (oauth_refresh_token_expire)',
  },
  /** @default 60 */
  oauthAuthCodeExpire: {
    env: 'GW_OAUTH_AUTH_CODE_EXPIRE',
    default: 60,
    rule: { type: 'number', integer: true, positive: true, convert: true },
    doc: 'seconds an OAuth authorisation code can be exchanged for a token (it is single use)',
  },
  /** @default 0 (expired tokens are never removed) */
  oauthTokenExpiredRetainPeriod: {
    env: 'GW_OAUTH_TOKEN_EXPIRED_RETAIN_PERIOD',
    default: 0,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc: 'seconds an expired OAuth access token stays in the token listing (oauth_token_expired_retain_period); 0 keeps it',
  },
  /** @default true */
  analytics: {
    env: 'GW_ANALYTICS',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc: 'gateway nodes record an analytics record per proxied request (sent to the analytics service)',
  },
  /** @default none */
  geoipDb: {
    env: 'GW_GEOIP_DB',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true },
    doc: 'a MaxMind .mmdb (GeoLite2/GeoIP2 Country or City): analytics records get iso_country',
  },
  /** @default 1 */
  analyticsFlushInterval: {
    env: 'GW_ANALYTICS_FLUSH_INTERVAL',
    default: 1,
    rule: { type: 'number', positive: true, convert: true },
    doc: "seconds between a gateway node's analytics batches (a batch also leaves at 1,000 records)",
  },
  /** @default 10000 */
  analyticsBufferSize: {
    env: 'GW_ANALYTICS_BUFFER_SIZE',
    default: 10_000,
    rule: { type: 'number', integer: true, min: 1, convert: true },
    doc: 'analytics records a gateway node holds while batches are in flight; past it records are dropped (counted, logged)',
  },
  /** @default 60 */
  analyticsSweepInterval: {
    env: 'GW_ANALYTICS_SWEEP_INTERVAL',
    default: 60,
    rule: { type: 'number', positive: true, convert: true },
    doc:
      "seconds between the analytics service's removals of raw records past their API's " +
      'expire_analytics_after and of what is older than GW_ANALYTICS_RETENTION',
  },
  /** @default 'auto': as many as the machine has cores on a gateway-only node, else 1 */
  workers: {
    env: 'GW_WORKERS',
    default: 'auto',
    rule: {
      type: 'string',
      convert: true,
      pattern: /^(auto|[1-9][0-9]{0,2})$/,
      messages: { stringPattern: "GW_WORKERS must be 'auto' or a number of workers from 1 to 999" },
    },
    doc:
      'gateway workers: threads that each serve the gateway ports (proxy, auth, limiter, GraphQL, streams) while the main ' +
      "thread keeps the management services; 'auto' is the number of cores on a node that runs only the gateway role, 1 otherwise",
  },
  /** @default 64 */
  limiterSharedMb: {
    env: 'GW_LIMITER_SHARED_MB',
    default: 64,
    rule: { type: 'number', integer: true, min: 1, max: 4096, convert: true },
    doc: 'shared memory (MB) for the limiter counters the gateway workers of a node share when GW_REDIS_URL is not set; 64 MB holds about 196,000 counters',
  },
  /** @default true */
  analyticsWriterThread: {
    env: 'GW_ANALYTICS_WRITER_THREAD',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc:
      'the analytics service stores batches in a worker thread with its own database connection, off the ' +
      "thread that serves requests; false stores them on the service's own thread (a sqlite::memory: database always is)",
  },
  /** @default 1000 */
  analyticsPathsPerApiHour: {
    env: 'GW_ANALYTICS_PATHS_PER_API_HOUR',
    default: 1000,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc:
      'distinct paths an API has analytics aggregates for in an hour; requests on further paths count for ' +
      'the path (other); requests refused before authentication count for (unauthenticated); 0: no limit',
  },
  /** @default 31622400 (366 days) */
  analyticsRetention: {
    env: 'GW_ANALYTICS_RETENTION',
    default: 366 * 24 * 3600,
    rule: { type: 'number', integer: true, min: 0, convert: true },
    doc:
      'seconds the analytics service keeps hourly aggregates and, at most, raw records ' +
      "(an API's expire_analytics_after may keep its raw records less); 0 keeps them",
  },
  /** @default false */
  accessLogs: {
    env: 'GW_ACCESS_LOGS',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'gateway nodes log a line per request an API answered (prefix=access-log, logfmt fields, at info level)',
  },
  /** @default every field */
  accessLogsTemplate: {
    env: 'GW_ACCESS_LOGS_TEMPLATE',
    default: [],
    rule: {
      type: 'array',
      items: { type: 'enum', values: [...ACCESS_LOG_FIELDS] },
    },
    doc: 'the fields of an access log line (comma list; a JSON array in GW_CONFIG); empty: every field',
  },
  /** @default none: tracing is off */
  otelEndpoint: {
    env: 'GW_OTEL_ENDPOINT',
    default: undefined,
    rule: {
      type: 'string',
      empty: false,
      optional: true,
      pattern: /^(https?:\/\/)?(\[[0-9a-fA-F:.]+\]|[^\s/:[\]]+)(:\d+)?(\/\S*)?$/,
      messages: {
        stringPattern:
          'GW_OTEL_ENDPOINT must be a collector address: http(s)://host:port[/path], or host:port for gRPC',
      },
    },
    doc:
      'where gw sends its OpenTelemetry traces (OTLP); setting it turns tracing on. HTTP: the collector base address ' +
      '(`http://collector:4318`, `/v1/traces` is added when no path is given); gRPC: `collector:4317`. ' +
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_ENDPOINT stand in when it is not set',
  },
  /** @default 'http/protobuf' */
  otelExporter: {
    env: 'GW_OTEL_EXPORTER',
    default: 'http/protobuf',
    rule: { type: 'enum', values: ['grpc', 'http', 'http/protobuf', 'http/json'] },
    doc: "how traces are sent: 'grpc', 'http' (the same as 'http/protobuf') or 'http/json' (OTEL_EXPORTER_OTLP_PROTOCOL)",
  },
  /** @default none */
  otelHeaders: {
    env: 'GW_OTEL_HEADERS',
    default: undefined,
    rule: { type: 'string', empty: false, optional: true, pattern: /^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/ },
    doc: 'headers sent with every export, `name=value` pairs separated by commas, values URL-encoded (OTEL_EXPORTER_OTLP_HEADERS); never logged',
  },
  /** @default 1 */
  otelConnectionTimeout: {
    env: 'GW_OTEL_CONNECTION_TIMEOUT',
    default: 1,
    rule: { type: 'number', positive: true, max: 600, convert: true },
    doc: 'seconds one export may take before it is given up and its spans counted as dropped (OTEL_EXPORTER_OTLP_TIMEOUT, in ms)',
  },
  /** @default 'gw' */
  otelResourceName: {
    env: 'GW_OTEL_RESOURCE_NAME',
    default: 'gw',
    rule: { type: 'string', empty: false },
    doc: 'the `service.name` of the spans gw exports (OTEL_SERVICE_NAME)',
  },
  /** @default 'batch' */
  otelSpanProcessor: {
    env: 'GW_OTEL_SPAN_PROCESSOR',
    default: 'batch',
    rule: { type: 'enum', values: ['batch', 'simple'] },
    doc: "'batch' sends spans in batches (GW_OTEL_BATCH_*); 'simple' sends each span as it ends (for debugging: one export per span)",
  },
  /** @default 512 */
  otelBatchSize: {
    env: 'GW_OTEL_BATCH_SIZE',
    default: 512,
    rule: { type: 'number', integer: true, min: 1, max: 100_000, convert: true },
    doc: 'the most spans one export carries (OTEL_BSP_MAX_EXPORT_BATCH_SIZE)',
  },
  /** @default 2048 */
  otelQueueSize: {
    env: 'GW_OTEL_QUEUE_SIZE',
    default: 2048,
    rule: { type: 'number', integer: true, min: 1, max: 1_000_000, convert: true },
    doc: 'finished spans held while waiting to be sent; past it spans are dropped and counted in /metrics (OTEL_BSP_MAX_QUEUE_SIZE)',
  },
  /** @default 5 */
  otelBatchTimeout: {
    env: 'GW_OTEL_BATCH_TIMEOUT',
    default: 5,
    rule: { type: 'number', positive: true, max: 3600, convert: true },
    doc: 'seconds a span waits at most before its batch is sent (OTEL_BSP_SCHEDULE_DELAY, in ms)',
  },
  /** @default 'tracecontext' */
  otelContextPropagation: {
    env: 'GW_OTEL_CONTEXT_PROPAGATION',
    default: 'tracecontext',
    rule: {
      type: 'string',
      pattern: /^\s*(tracecontext|b3|b3multi)\s*(,\s*(tracecontext|b3|b3multi)\s*)*$/,
      messages: {
        stringPattern: "GW_OTEL_CONTEXT_PROPAGATION must be 'tracecontext', 'b3', 'b3multi' or a comma list of them",
      },
    },
    doc:
      "how the trace context is read from clients and passed upstream: 'tracecontext' (W3C traceparent, tracestate), " +
      "'b3' (B3 single header) or 'b3multi' (X-B3-* headers), or a comma list (OTEL_PROPAGATORS); B3 is read in either form",
  },
  /** @default 'AlwaysOn' */
  otelSamplingType: {
    env: 'GW_OTEL_SAMPLING_TYPE',
    default: 'AlwaysOn',
    rule: { type: 'enum', values: ['AlwaysOn', 'AlwaysOff', 'TraceIDRatioBased'] },
    doc: "which requests are traced: 'AlwaysOn', 'AlwaysOff' or 'TraceIDRatioBased' (GW_OTEL_SAMPLING_RATE of them; OTEL_TRACES_SAMPLER)",
  },
  /** @default 1 */
  otelSamplingRate: {
    env: 'GW_OTEL_SAMPLING_RATE',
    default: 1,
    rule: { type: 'number', min: 0, max: 1, convert: true },
    doc: "with 'TraceIDRatioBased', the share of new traces that are sampled, from 0 to 1 (OTEL_TRACES_SAMPLER_ARG)",
  },
  /** @default true */
  otelSamplingParentBased: {
    env: 'GW_OTEL_SAMPLING_PARENT_BASED',
    default: true,
    rule: { type: 'boolean', convert: true },
    doc: "a request that arrives with a trace context follows its caller's sampling decision; the sampling type decides only for new traces",
  },
  /** @default false */
  otelTraceIdHeader: {
    env: 'GW_OTEL_TRACE_ID_HEADER',
    default: false,
    rule: { type: 'boolean', convert: true },
    doc: 'with tracing on, every answer of an API carries its trace id in `X-Gw-Trace-Id`',
  },
} satisfies Record<string, OptionDeclaration>;

export type OptionKey = keyof typeof OPTIONS;

/** Names people might reach for, and the option that replaced or means them. */
export const RENAMED: Record<string, string> = {
  GW_PORT: 'GW_GATEWAY_PORT',
  GW_LISTEN_PORT: 'GW_GATEWAY_PORT',
  GW_DB_URL: 'GW_DATABASE_URL',
  GW_DATABASE: 'GW_DATABASE_URL',
  GW_APP_PATH: 'GW_APPS_DIR',
  GW_ADMIN_AUTH: 'GW_ADMIN_SECRET',
};
