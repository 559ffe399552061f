import type { NameToggle } from './gateway-extension';

/** A credential location: the toggle's name when on, the document's default when not mentioned, none when off. */
export function location(toggle: NameToggle | undefined, fallback: string | undefined): string | undefined {
  if (toggle === undefined) return fallback;
  return toggle.enabled === true ? (toggle.name ?? fallback) : undefined;
}

/**
 * Where a scheme's credential is read, as a classic `auth_configs` entry (`authToken`, `jwt`):
 * the header always (the document's own name, else `Authorization`), the query and the cookie
 * where the extension or the document puts them.
 */
export function credentialConfig(
  declared: { in?: string; name?: string },
  settings: { header?: NameToggle; query?: NameToggle; cookie?: NameToggle },
): Record<string, unknown> {
  const header = location(settings.header, declared.in === 'header' ? declared.name : undefined);
  const query = location(settings.query, declared.in === 'query' ? declared.name : undefined);
  const cookie = location(settings.cookie, declared.in === 'cookie' ? declared.name : undefined);
  const config: Record<string, unknown> = {
    auth_header_name: header ?? 'Authorization',
    use_param: query !== undefined,
    use_cookie: cookie !== undefined,
  };
  if (query) config.param_name = query;
  if (cookie) config.cookie_name = cookie;
  return config;
}
