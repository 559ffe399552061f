import type { JsonRpcId, JsonRpcRequest } from './jsonrpc';
import type { PrimitiveKind } from './primitive';

/** Whether the caller may use a primitive (the API's rules and the key's rights together). */
export type MayUse = (kind: PrimitiveKind, name: string) => boolean;

const LISTS: Record<string, { kind: PrimitiveKind; field: 'tools' | 'resources' | 'prompts'; key: 'name' | 'uri' }> = {
  'tools/list': { kind: 'tool', field: 'tools', key: 'name' },
  'resources/list': { kind: 'resource', field: 'resources', key: 'uri' },
  'prompts/list': { kind: 'prompt', field: 'prompts', key: 'name' },
};

/** The ids of the list requests of a body, with what each lists: their answers are filtered. */
export function listRequests(messages: JsonRpcRequest[]): Map<JsonRpcId, string> {
  const lists = new Map<JsonRpcId, string>();
  for (const message of messages)
    if (LISTS[message.method] && message.id !== undefined) lists.set(message.id, message.method);
  return lists;
}

/**
 * Removes from a list answer the primitives the caller may not use; any other message is
 * returned as it is. True when something was removed (the message was changed in place).
 */
export function filterListAnswer(message: unknown, lists: Map<JsonRpcId, string>, mayUse: MayUse): boolean {
  if (lists.size === 0 || typeof message !== 'object' || message === null) return false;
  const { id, result } = message as { id?: JsonRpcId; result?: Record<string, unknown> };
  const method = id === undefined ? undefined : lists.get(id);
  if (!method || typeof result !== 'object' || result === null) return false;
  const list = LISTS[method];
  const items = result[list.field];
  if (!Array.isArray(items)) return false;
  const kept = items.filter((item: Record<string, unknown> | null) => {
    const name = item?.[list.key];
    return typeof name === 'string' && mayUse(list.kind, name);
  });
  if (kept.length === items.length) return false;
  result[list.field] = kept;
  return true;
}

/** Applies filterListAnswer to one parsed answer body (a message or a batch). */
export function filterAnswerBody(body: unknown, lists: Map<JsonRpcId, string>, mayUse: MayUse): boolean {
  if (Array.isArray(body)) {
    let changed = false;
    for (const message of body) changed = filterListAnswer(message, lists, mayUse) || changed;
    return changed;
  }
  return filterListAnswer(body, lists, mayUse);
}
