import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { GwConfig } from '../../config/load-config';

export type TraceExporterSettings = Pick<
  GwConfig,
  'otelEndpoint' | 'otelExporter' | 'otelHeaders' | 'otelConnectionTimeout'
> & { otelEndpoint: string };

/**
 * The SDK's OTLP exporter the settings ask for: gRPC, HTTP with protobuf, or HTTP with JSON.
 * `concurrencyLimit`: the exports that may be in flight at once (past it an export fails).
 */
export function createTraceExporter(settings: TraceExporterSettings, concurrencyLimit: number): SpanExporter {
  const headers = parseHeaders(settings.otelHeaders);
  const timeoutMillis = Math.round(settings.otelConnectionTimeout * 1000);
  if (settings.otelExporter === 'grpc') {
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
    return new GrpcExporter({ url: grpcUrl(settings.otelEndpoint), metadata, timeoutMillis, concurrencyLimit });
  }
  const url = httpTracesUrl(settings.otelEndpoint);
  const options = { url, headers, timeoutMillis, concurrencyLimit };
  return settings.otelExporter === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
}

/** A collector base address gets the OTLP/HTTP traces path; an address with a path is taken as it is. */
export function httpTracesUrl(endpoint: string): string {
  const url = new URL(/^https?:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  return url.href;
}

/** gRPC wants `http://host:port` (plain text) or `https://host:port`; a bare `host:port` is plain text. */
function grpcUrl(endpoint: string): string {
  return /^https?:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`;
}

/** `name=value,name2=value2`, values URL-encoded, as OTEL_EXPORTER_OTLP_HEADERS writes them. */
export function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!raw) return headers;
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    const value = pair.slice(at + 1).trim();
    if (name === '') continue;
    try {
      headers[name] = decodeURIComponent(value);
    } catch {
      headers[name] = value;
    }
  }
  return headers;
}
