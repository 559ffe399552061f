import type { ServiceSchema } from 'moleculer';
import { ConfigError } from '../lib/config/load-config';
import type { Runtime } from '../lib/runtime';
import { analyticsService } from './analytics/analytics.service';
import { apiService } from './api/api.service';
import { apisService } from './apis/apis.service';
import { authService } from './auth/auth.service';
import { graphqlEngineService } from './graphql-engine/graphql-engine.service';
import { certsService } from './certs/certs.service';
import { keysService } from './keys/keys.service';
import { limiterService } from './limiter/limiter.service';
import { oauthService } from './oauth/oauth.service';
import { orgsService } from './orgs/orgs.service';
import { proxyService } from './proxy/proxy.service';
import { usersService } from './users/users.service';
import { webhooksService } from './webhooks/webhooks.service';
import { streamsService } from './streams/streams.service';
import { streamMappingCheck } from './streams/lib/mapping-check';

/** Every service gw can run, by name. */
export const SERVICE_FACTORIES: Record<string, (runtime: Runtime) => ServiceSchema> = {
  proxy: proxyService,
  auth: authService,
  limiter: (runtime) => limiterService(runtime),
  'graphql-engine': graphqlEngineService,
  api: apiService,
  apis: (runtime) => apisService(runtime, { streamMappingCheck }),
  streams: streamsService,
  keys: keysService,
  certs: certsService,
  orgs: orgsService,
  oauth: (runtime) => oauthService(runtime),
  users: usersService,
  webhooks: (runtime) => webhooksService(runtime),
  analytics: analyticsService,
};

/** The services with tables: a node that runs one opens GW_DATABASE_URL at start. */
export const SERVICES_WITH_TABLES: readonly string[] = [
  'apis',
  'keys',
  'certs',
  'orgs',
  'oauth',
  'users',
  'webhooks',
  'analytics',
];

/**
 * The services of each role (docs/cluster.md#what-each-role-runs).
 */
export const ROLES: Record<string, string[]> = {
  gateway: ['proxy', 'auth', 'limiter', 'graphql-engine', 'streams'],
  management: ['api', 'apis', 'keys', 'certs', 'orgs', 'users', 'oauth', 'webhooks', 'analytics'],
};

/** Expands GW_SERVICES (`all`, role names, service names) into service names, or says what is unknown. */
export function resolveServiceNames(requested: readonly string[]): string[] {
  const names = new Set<string>();
  for (const entry of requested) {
    if (entry === 'all') Object.keys(SERVICE_FACTORIES).forEach((name) => names.add(name));
    else if (ROLES[entry]) ROLES[entry].forEach((name) => names.add(name));
    else if (SERVICE_FACTORIES[entry]) names.add(entry);
    else {
      const known = ['all', ...Object.keys(ROLES), ...Object.keys(SERVICE_FACTORIES)].join(', ');
      throw new ConfigError(`GW_SERVICES: unknown service or role '${entry}'; known: ${known}`);
    }
  }
  return [...names];
}
