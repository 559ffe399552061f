import { streamingProblems, type MappingCheck } from '../../../../lib/streams/config-check';
import { cloneJson, type OasDocument } from './document';
import type { ClassicInput } from './to-classic';

/** The name of the streams extension in an OpenAPI document. */
export const STREAMING_EXTENSION = 'x-gw-streaming';

/** Problems of `x-gw-streaming`, each led by its JSON pointer (stream name and field). */
export function streamingExtensionProblems(document: OasDocument, mapping: MappingCheck | undefined): string[] {
  return streamingProblems(document[STREAMING_EXTENSION], `/${STREAMING_EXTENSION}`, mapping);
}

/** The streams travel to the gateways in the classic definition's `streaming` field. */
export function streamingToClassic(document: OasDocument, into: ClassicInput): ClassicInput {
  return { ...into, streaming: cloneJson(document[STREAMING_EXTENSION]) };
}
