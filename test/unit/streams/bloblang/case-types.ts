/** One row of the mapping table: a mapping, a message, and exactly what comes out. */
export interface MappingCase {
  name: string;
  mapping: string;
  /** the message content */
  input: string;
  metadata?: Record<string, unknown>;
  /** the new content, byte for byte */
  output?: string;
  /** the new content as a JSON document (where the source lists keys in another order) */
  json?: unknown;
  /** the new message's whole metadata */
  outputMetadata?: Record<string, unknown>;
  deleted?: true;
  /** the exact MappingError message */
  error?: string;
  /** further messages through the same parsed mapping, in order (stateful functions) */
  then?: Array<Omit<MappingCase, 'name' | 'mapping' | 'then'>>;
}

/** A mapping refused when saved, with where and why. */
export interface SyntaxCase {
  name: string;
  mapping: string;
  line: number;
  column: number;
  /** the message after "line L char C: " */
  detail: string;
}
