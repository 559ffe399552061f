import type { IncomingHttpHeaders } from 'node:http';

/**
 * Where the browser should call the gateway, for the dashboard's "call it at" hints. The
 * dashboard has no configured public gateway address (the reference's `host_config`), so it
 * assumes the gateway answers on the host the browser reached the dashboard by, at the gateway
 * port: this node's own gateway port when it runs one, else GW_GATEWAY_PORT. Behind a proxy that
 * maps other names or ports the hint is wrong, as docs/deploying.md#behind-a-reverse-proxy says.
 */
export function gatewayUrlFor(headers: IncomingHttpHeaders, gatewayPort: number, fallbackHost: string): string {
  const host = hostnameOf(headers.host) ?? fallbackHost;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${gatewayPort}`;
}

/** `localhost:3000` → `localhost`, `[::1]:3000` → `[::1]`; undefined for anything that is not a host name. */
function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.exec(hostHeader.trim());
  return match?.[1];
}
