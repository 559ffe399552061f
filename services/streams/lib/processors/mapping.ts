import { setImmediate as nextTurn } from 'node:timers/promises';
import { check, execute, executeOnto, MappingSyntaxError, parseMapping } from '../../bloblang';
import type { Mapping, MappingError, MappingMessage, MappingOutcome } from '../../bloblang';
import type { StreamMessage } from '../message';
import type { ConnectorCounters } from '../stats';

/** Parses a mapping of a definition (checked when saved, so a failure here is a stale definition). */
export function compileMapping(text: string, where: string): Mapping {
  const parsed = parseMapping(text);
  if (parsed instanceof MappingSyntaxError) throw new Error(`${where}: the mapping does not parse: ${parsed.message}`);
  return parsed;
}

/** The processor a mapping runs in: named in the log line of a message it cut off, and counting it. */
export interface MappingSite {
  /** `stream orders processor.0 (mapping)` */
  where: string;
  counters: ConnectorCounters;
  log(level: 'warn', message: string): void;
}

/**
 * An evaluation that took this long gives the event loop a turn before the next one: each is
 * bounded by its time budget, and a batch or a chain of them must not add up to a stall.
 */
const TURN_AFTER_MS = 5;

function asMappingMessage(message: StreamMessage): MappingMessage {
  return { content: message.content, metadata: message.metadata, error: message.error ?? null };
}

export type MapResult =
  { kind: 'message'; message: StreamMessage } | { kind: 'deleted' } | { kind: 'error'; error: string };

/**
 * Every tenant mapping of a stream runs through here: synchronously, under the interpreter's
 * time budget (a message that exceeds it fails like any failed mapping), then, after a long
 * one, the rest of the node gets a turn. A limit that stopped a message is logged, once per message.
 */
async function guarded<T>(
  site: MappingSite,
  evaluate: () => T,
  errorOf: (outcome: T) => MappingError | undefined,
): Promise<T> {
  const started = performance.now();
  const outcome = evaluate();
  const error = errorOf(outcome);
  if (error?.limit) {
    site.log('warn', `${site.where}: message ${site.counters.received} cut off: ${error.message}`);
  }
  if (performance.now() - started >= TURN_AFTER_MS) await nextTurn();
  return outcome;
}

const errorOfOutcome = (outcome: MappingOutcome) => (outcome.kind === 'error' ? outcome.error : undefined);

/** Runs a mapping on one message (Bento's `mapping` processor). */
export async function mapMessage(site: MappingSite, mapping: Mapping, message: StreamMessage): Promise<MapResult> {
  const outcome = await guarded(site, () => execute(mapping, asMappingMessage(message)), errorOfOutcome);
  if (outcome.kind === 'deleted') return outcome;
  if (outcome.kind === 'error') return { kind: 'error', error: outcome.error.message };
  return {
    kind: 'message',
    message: { ...message, content: outcome.message.content, metadata: outcome.message.metadata },
  };
}

/** A branch's `result_map`: reads the branch result, writes onto the original message. */
export async function mapOnto(
  site: MappingSite,
  mapping: Mapping,
  result: StreamMessage,
  onto: StreamMessage,
): Promise<MapResult> {
  const evaluate = () => executeOnto(mapping, asMappingMessage(result), asMappingMessage(onto));
  const outcome = await guarded(site, evaluate, errorOfOutcome);
  if (outcome.kind === 'deleted') return outcome;
  if (outcome.kind === 'error') return { kind: 'error', error: outcome.error.message };
  return {
    kind: 'message',
    message: { ...onto, content: outcome.message.content, metadata: outcome.message.metadata },
  };
}

/** A switch case's `check`: true, false, or the error that made it neither. */
export async function checkMessage(
  site: MappingSite,
  mapping: Mapping,
  message: StreamMessage,
): Promise<boolean | string> {
  const evaluate = () => check(mapping, asMappingMessage(message));
  const outcome = await guarded(site, evaluate, (o) => (typeof o === 'boolean' ? undefined : o));
  return typeof outcome === 'boolean' ? outcome : outcome.message;
}
