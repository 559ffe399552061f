import { ApisErrors } from '../../errors';
import { asyncApiGraph } from './asyncapi-graph';
import { fetchDocument } from './document-fetch';
import {
  assertLocalReferences,
  assertSupportedVersion,
  detectFormat,
  isObject,
  parseDocumentText,
  type DocumentFormat,
} from './document-text';
import { parseAsyncApi, validateOpenApi } from './document-validation';
import type { GeneratedGraph } from './generated-graph';
import { openApiGraph } from './openapi-graph';

/** What the import endpoint was sent: a URL to fetch, or the document itself. */
export type ImportSource = { kind: 'url'; url: string } | { kind: 'document'; format: DocumentFormat; text: string };

const MEDIA_TYPES: Record<string, DocumentFormat> = {
  'application/vnd.gw.udg.v2.openapi': 'openapi',
  'application/vnd.gw.udg.v2.asyncapi': 'asyncapi',
};

/** Reads the request by its Content-Type (docs/graphql.md#importing-openapi-and-asyncapi-documents). */
export function importSourceOf(contentType: string | undefined, body: string): ImportSource {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const format = MEDIA_TYPES[media];
  if (format) return { kind: 'document', format, text: body };
  if (media !== 'application/json') throw ApisErrors.importMediaType(media);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw ApisErrors.importMalformed('the request body is not JSON: send {"url": "<where the document is>"}');
  }
  if (!isObject(parsed) || typeof parsed.url !== 'string' || parsed.url.trim() === '') {
    throw ApisErrors.importInvalid('The request body needs a "url" naming the OpenAPI or AsyncAPI document to import');
  }
  return { kind: 'url', url: parsed.url.trim() };
}

/** Fetches (for a URL), parses, detects, validates and converts the document. */
export async function generateGraph(
  source: ImportSource,
  fetch: typeof fetchDocument = fetchDocument,
): Promise<GeneratedGraph> {
  const fetched = source.kind === 'url' ? await fetch(source.url) : undefined;
  const document = parseDocumentText(fetched?.text ?? (source as { text: string }).text);
  const format = detectFormat(document);
  if (source.kind === 'document' && format !== source.format) {
    throw ApisErrors.importInvalid(
      `The Content-Type announces an ${displayName(source.format)} document but the body is an ${displayName(format)} document`,
    );
  }
  const object = document as Record<string, unknown>;
  assertSupportedVersion(format, object);
  assertLocalReferences(object);
  if (format === 'asyncapi') return asyncApiGraph(await parseAsyncApi(object));
  await validateOpenApi(object);
  return openApiGraph(object, serverBaseUrl(object, fetched?.url));
}

/**
 * The first server's URL, its variables replaced by their defaults; a relative one is resolved
 * against the URL the document came from. The graph's REST data sources call it.
 */
export function serverBaseUrl(document: Record<string, unknown>, documentUrl?: string): string {
  const server = (
    document.servers as Array<{ url?: unknown; variables?: Record<string, { default?: unknown }> }> | undefined
  )?.[0];
  const raw =
    typeof server?.url === 'string'
      ? server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => String(server.variables?.[name]?.default ?? whole))
      : '/';
  let url: URL | undefined;
  try {
    url = new URL(raw, documentUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw ApisErrors.importInvalid(
      `The OpenAPI document names no absolute http(s) server URL (servers[0].url is '${raw}'): the generated data sources need to know where to call`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

function displayName(format: DocumentFormat): string {
  return format === 'openapi' ? 'OpenAPI' : 'AsyncAPI';
}
