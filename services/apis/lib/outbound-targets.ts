import type { ApiDefinition, HookReference } from '../../../contracts/apis/api-definition';
import { hostSaveRefusal } from '../../../lib/net/outbound-save-check';
import { ApisErrors } from '../errors';
import { base64Text, isHttpUrl } from './token-auth-rules';

/** A place of a definition the gateway connects to: how messages name it, and its URL or `host[:port]`. */
interface OutboundTarget {
  /** "proxy.target_url:", or "data source 'users': config.url" as the data-source checks write it */
  label: string;
  value: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuses, when an API is saved, a definition that names an address the outbound policy refuses
 * (lib/net/outbound-policy.ts) in any place the gateway connects to on its organisation's behalf:
 * upstream targets, service discovery, uptime checks, OAuth key-change notifications,
 * combined-graph data sources, stream connectors, inline webhooks, and the JWKS URLs and OpenID
 * Connect issuers client tokens are checked against. The connections judge
 * their addresses again, whatever a name resolves to by then (and whatever reached a gateway
 * without being saved here).
 */
export async function assertOutboundTargets(
  definition: ApiDefinition,
  hookReferences: HookReference[] | undefined,
): Promise<void> {
  const targets = [
    ...proxyTargets(definition),
    ...tokenKeyTargets(definition),
    ...dataSourceTargets(definition.graphql),
    ...streamTargets(definition.streaming),
    ...hookTargets(hookReferences),
  ];
  const problems = await Promise.all(
    targets.map(async ({ label, value }) => {
      const refusal = await hostSaveRefusal(hostOf(value));
      return refusal ? `${label} '${value}' ${refusal}` : undefined;
    }),
  );
  const problem = problems.find(Boolean);
  if (problem) throw ApisErrors.invalid(problem);
}

/** The host of a URL, or of `host[:port]` as broker lists write them; '' when there is none. */
function hostOf(value: string): string {
  try {
    return new URL(value.includes('://') ? value : `tcp://${value}`).hostname;
  } catch {
    return '';
  }
}

function proxyTargets(definition: ApiDefinition): OutboundTarget[] {
  const proxy = definition.proxy as unknown as Record<string, unknown>;
  const out: OutboundTarget[] = [];
  const add = (label: string, value: unknown) => {
    if (typeof value === 'string' && value !== '') out.push({ label, value });
  };
  // gw://<api_id>/mcp is served by the gateway itself (REST as MCP): nothing to connect to.
  if (!String(proxy.target_url ?? '').startsWith('gw://')) add('proxy.target_url:', proxy.target_url);
  if (proxy.enable_load_balancing === true && Array.isArray(proxy.target_list)) {
    proxy.target_list.forEach((value, i) => add(`proxy.target_list[${i}]:`, value));
  }
  const discovery = isRecord(proxy.service_discovery) ? proxy.service_discovery : {};
  if (discovery.use_discovery_service === true) {
    add('proxy.service_discovery.query_endpoint:', discovery.query_endpoint);
  }
  const notifications = (definition as unknown as { notifications?: unknown }).notifications;
  const keyChange = isRecord(notifications) ? notifications.oauth_on_keychange_url : undefined;
  add('notifications.oauth_on_keychange_url:', keyChange);
  const checks = isRecord(definition.uptime_tests) ? definition.uptime_tests.check_list : undefined;
  if (Array.isArray(checks)) {
    checks.forEach((entry, i) => add(`uptime_tests.check_list[${i}].url:`, isRecord(entry) ? entry.url : ''));
  }
  return out;
}

/** Where the gateway fetches the keys that check client tokens: JWKS URLs (also a base64 one in jwt_source) and issuers. */
function tokenKeyTargets(d: Record<string, unknown>): OutboundTarget[] {
  const out: OutboundTarget[] = [];
  const source = typeof d.jwt_source === 'string' ? d.jwt_source : '';
  const decoded = source !== '' && !isHttpUrl(source) ? base64Text(source) : undefined;
  if (isHttpUrl(source)) out.push({ label: 'jwt_source:', value: source });
  else if (decoded !== undefined && isHttpUrl(decoded.trim()))
    out.push({ label: 'jwt_source (base64 of a URL):', value: decoded.trim() });
  if (Array.isArray(d.jwt_jwks_uris))
    d.jwt_jwks_uris.forEach((entry, i) => {
      if (isRecord(entry) && typeof entry.url === 'string')
        out.push({ label: `jwt_jwks_uris[${i}].url:`, value: entry.url });
    });
  const providers = isRecord(d.openid_options) ? d.openid_options.providers : undefined;
  if (Array.isArray(providers))
    providers.forEach((provider, i) => {
      if (isRecord(provider) && typeof provider.issuer === 'string' && provider.issuer !== '')
        out.push({ label: `openid_options.providers[${i}].issuer:`, value: provider.issuer });
    });
  return out;
}

function dataSourceTargets(graphql: unknown): OutboundTarget[] {
  const engine = isRecord(graphql) && isRecord(graphql.engine) ? graphql.engine : {};
  const sources = Array.isArray(engine.data_sources) ? engine.data_sources : [];
  return sources.flatMap((source, i) => {
    const config = isRecord(source) && isRecord(source.config) ? source.config : {};
    // named as the data-source checks name them (lib/graphql/combined-graph-config.ts)
    const named = isRecord(source) && typeof source.name === 'string' && source.name !== '';
    const name = named ? String(source.name) : `#${i}`;
    const at = `data source '${name}': config`;
    const url = typeof config.url === 'string' ? [{ label: `${at}.url`, value: config.url }] : [];
    const brokers = (Array.isArray(config.broker_addresses) ? config.broker_addresses : []) as unknown[];
    const brokerTargets = brokers.flatMap((value, j) =>
      typeof value === 'string' ? [{ label: `${at}.broker_addresses[${j}]`, value }] : [],
    );
    return [...url, ...brokerTargets];
  });
}

/** Every `url`, `portal_url`, `urls` and `addresses` of a stream configuration, wherever nested. */
function streamTargets(streaming: unknown, at = 'streaming'): OutboundTarget[] {
  if (Array.isArray(streaming)) return streaming.flatMap((item, i) => streamTargets(item, `${at}[${i}]`));
  if (!isRecord(streaming)) return [];
  return Object.entries(streaming).flatMap(([key, value]): OutboundTarget[] => {
    const field = `${at}.${key}`;
    if ((key === 'url' || key === 'portal_url') && typeof value === 'string') {
      // an interpolated part is judged once filled in, when the stream sends
      return [{ label: `${field}:`, value: value.replace(/\$\{!.*?\}/g, 'x') }];
    }
    if ((key === 'urls' || key === 'addresses') && Array.isArray(value)) {
      // a list item may itself be a comma list (Bento's addresses and urls)
      return value.flatMap((entry, i) => {
        const items = typeof entry === 'string' ? entry.split(',').map((one) => one.trim()) : [];
        return items.filter(Boolean).map((one) => ({ label: `${field}[${i}]:`, value: one }));
      });
    }
    return streamTargets(value, field);
  });
}

function hookTargets(references: HookReference[] | undefined): OutboundTarget[] {
  return (references ?? []).flatMap((reference, i) => {
    const target = reference.hook?.target_path;
    const label = `hook_references[${i}].hook.target_path:`;
    return typeof target === 'string' ? [{ label, value: target }] : [];
  });
}
