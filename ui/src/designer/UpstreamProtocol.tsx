import { Toggle } from '../components/form';
import { at } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import { upstreamHttp2 } from './upstream-protocol';

const ENABLE_HTTP2 = 'proxy.transport.enable_http2';

/** The upstream's HTTP version: the HTTP/2 option of an https:// target, and how gRPC services are reached. */
export function UpstreamProtocol({ def, set, readOnly }: EditorProps) {
  const http2 = upstreamHttp2(String(at(def, 'proxy.target_url') ?? ''));
  return (
    <div data-field={ENABLE_HTTP2}>
      {http2 === 'optional' && (
        <Toggle
          label="Speak HTTP/2 to an https:// upstream"
          name={ENABLE_HTTP2}
          checked={at(def, ENABLE_HTTP2) === true}
          onChange={(v) => set(ENABLE_HTTP2, v)}
          disabled={readOnly}
        />
      )}
      {http2 === 'implied' && (
        <p>
          <small>HTTP/2 is implied: an h2c:// target is always spoken to over cleartext HTTP/2.</small>
        </p>
      )}
      <p>
        <small>
          gRPC services: set the target to h2c://host:port or https:// with HTTP/2; clients reach gw over HTTP/2 (the
          TLS port, or the plain port with GW_GATEWAY_H2C).
        </small>
      </p>
    </div>
  );
}
