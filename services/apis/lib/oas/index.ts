import { cloneJson, GATEWAY_EXTENSION, type OasDocument } from './document';
import { gatewayExtensionToClassic, type ClassicInput } from './to-classic';
import { validateDocument } from './validate-document';

export { parseDocumentText, GATEWAY_EXTENSION, type OasDocument } from './document';
export { classicToOas } from './from-classic';

/**
 * The extensions an OAS definition may carry, each compiled into the classic definition the
 * gateways run. `x-gw-api-gateway` is the only one today; `x-gw-streaming` (issue 16) is added
 * here beside it, with its own schema check and compile step.
 */
interface OasExtension {
  key: string;
  /** extra problems (JSON pointer first) beyond the document's own checks */
  problems?(document: OasDocument): string[];
  /** adds what the extension says to the classic definition built so far */
  compile(document: OasDocument, into: ClassicInput | undefined): ClassicInput;
}

const EXTENSIONS: OasExtension[] = [{ key: GATEWAY_EXTENSION, compile: (document) => gatewayExtensionToClassic(document) }];

/** An OAS definition as stored: the document (ids filled in) and the classic definition compiled from it. */
export interface CompiledOas {
  document: OasDocument;
  classic: ClassicInput;
}

/** Checks a document and compiles it; throws a 400 naming the JSON pointer of each problem. */
export function compileOasDefinition(raw: Record<string, unknown>): CompiledOas {
  const document = validateDocument(cloneJson(raw));
  let classic: ClassicInput | undefined;
  for (const extension of EXTENSIONS) if (document[extension.key] !== undefined) classic = extension.compile(document, classic);
  return { document, classic: classic! };
}

/** The document as stored: the ids and organisation the store gave the API written into its extension. */
export function withStoredIds(document: OasDocument, ids: { id: string; api_id: string; org_id: string }): OasDocument {
  const copy = cloneJson(document);
  const extension = copy[GATEWAY_EXTENSION] as { info: Record<string, unknown> };
  extension.info = { ...extension.info, id: ids.api_id, dbId: ids.id, orgId: ids.org_id };
  return copy;
}
