import { check, execute, executeOnto, MappingSyntaxError, parseMapping, type Mapping, type MappingMessage } from '../../bloblang';
import type { StreamMessage } from '../message';

/** Parses a mapping of a definition (checked when saved, so a failure here is a stale definition). */
export function compileMapping(text: string, where: string): Mapping {
  const parsed = parseMapping(text);
  if (parsed instanceof MappingSyntaxError) throw new Error(`${where}: the mapping does not parse: ${parsed.message}`);
  return parsed;
}

function asMappingMessage(message: StreamMessage): MappingMessage {
  return { content: message.content, metadata: message.metadata, error: message.error ?? null };
}

export type MapResult = { kind: 'message'; message: StreamMessage } | { kind: 'deleted' } | { kind: 'error'; error: string };

/** Runs a mapping on one message (Bento's `mapping` processor). */
export function mapMessage(mapping: Mapping, message: StreamMessage): MapResult {
  const outcome = execute(mapping, asMappingMessage(message));
  if (outcome.kind === 'deleted') return outcome;
  if (outcome.kind === 'error') return { kind: 'error', error: outcome.error.message };
  return { kind: 'message', message: { ...message, content: outcome.message.content, metadata: outcome.message.metadata } };
}

/** A branch's `result_map`: reads the branch result, writes onto the original message. */
export function mapOnto(mapping: Mapping, result: StreamMessage, onto: StreamMessage): MapResult {
  const outcome = executeOnto(mapping, asMappingMessage(result), asMappingMessage(onto));
  if (outcome.kind === 'deleted') return outcome;
  if (outcome.kind === 'error') return { kind: 'error', error: outcome.error.message };
  return { kind: 'message', message: { ...onto, content: outcome.message.content, metadata: outcome.message.metadata } };
}

/** A switch case's `check`: true, false, or the error that made it neither. */
export function checkMessage(mapping: Mapping, message: StreamMessage): boolean | string {
  const outcome = check(mapping, asMappingMessage(message));
  return typeof outcome === 'boolean' ? outcome : outcome.message;
}
