import { cloneJson, GATEWAY_EXTENSION, type OasDocument } from './document';
import type { HookReference } from '../../../../contracts/apis/api-definition';
import { eventHandlersToHookReferences, gatewayExtensionToClassic, type ClassicInput } from './to-classic';
import { validateDocument } from './validate-document';
import { STREAMING_EXTENSION, streamingExtensionProblems, streamingToClassic } from './streaming-extension';
import type { MappingCheck } from '../../../../lib/streams/config-check';
import { ApisErrors } from '../../errors';
import { mcpProblems, mcpToClassic } from './mcp-extension';

export { parseDocumentText, GATEWAY_EXTENSION, type OasDocument } from './document';
export { classicToOas } from './from-classic';
export { STREAMING_EXTENSION } from './streaming-extension';
export { MCP_SERVER_EXTENSION, restSourceOf } from './mcp-extension';
export type { ClassicInput } from './to-classic';

/**
 * The extensions an OAS definition may carry, each compiled into the classic definition the
 * gateways run: `x-gw-api-gateway` (the listen path, authentication, limits) and `x-gw-streaming`
 * (the API's event streams, carried to the gateways in the classic `streaming` field).
 */
interface OasExtension {
  key: string;
  /** extra problems (JSON pointer first) beyond the document's own checks */
  problems?(document: OasDocument, options: CompileOptions): string[];
  /** adds what the extension says to the classic definition built so far */
  compile(document: OasDocument, into: ClassicInput | undefined): ClassicInput;
}

const EXTENSIONS: OasExtension[] = [
  { key: GATEWAY_EXTENSION, compile: (document) => gatewayExtensionToClassic(document) },
  {
    key: STREAMING_EXTENSION,
    problems: (document, options) => streamingExtensionProblems(document, options.mappingCheck),
    compile: (document, into) => streamingToClassic(document, into!),
  },
];

export interface CompileOptions {
  /** the Bloblang syntax check of stream mappings (given by the node's composition root) */
  mappingCheck?: MappingCheck;
  /** a streams API (`/api/apis/streams`): the document must carry `x-gw-streaming` */
  requireStreaming?: boolean;
  /** an MCP API (/gw/mcps): `middleware.mcp*`, `x-gw-mcp-server` and gw:// upstreams are allowed, the `mcp` block compiled */
  mcp?: boolean;
}

/** An OAS definition as stored: the document (ids filled in) and the classic definition compiled from it. */
export interface CompiledOas {
  document: OasDocument;
  classic: ClassicInput;
  /** the document's event handlers, as the hook references of the API */
  hookReferences: HookReference[];
}

/** Checks a document and compiles it; throws a 400 naming the JSON pointer of each problem. */
export function compileOasDefinition(raw: Record<string, unknown>, options: CompileOptions = {}): CompiledOas {
  if (options.requireStreaming && raw[STREAMING_EXTENSION] === undefined) {
    throw ApisErrors.invalidOas([`/${STREAMING_EXTENSION}: is required (the streams of a streams API)`]);
  }
  const document = validateDocument(cloneJson(raw));
  const problems = EXTENSIONS.flatMap((extension) =>
    document[extension.key] !== undefined && extension.problems ? extension.problems(document, options) : [],
  );
  problems.push(...mcpProblems(document, options.mcp === true));
  if (problems.length > 0) throw ApisErrors.invalidOas(problems);
  let classic: ClassicInput | undefined;
  for (const extension of EXTENSIONS)
    if (document[extension.key] !== undefined) classic = extension.compile(document, classic);
  if (options.mcp) classic = mcpToClassic(document, classic!);
  return { document, classic: classic!, hookReferences: eventHandlersToHookReferences(document) };
}

/** The document as stored: the ids and organisation the store gave the API written into its extension. */
export function withStoredIds(document: OasDocument, ids: { id: string; api_id: string; org_id: string }): OasDocument {
  const copy = cloneJson(document);
  const extension = copy[GATEWAY_EXTENSION] as { info: Record<string, unknown> };
  extension.info = { ...extension.info, id: ids.api_id, dbId: ids.id, orgId: ids.org_id };
  return copy;
}
