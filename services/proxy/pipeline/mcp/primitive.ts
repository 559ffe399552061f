import type { JsonRpcRequest } from './jsonrpc';

export type PrimitiveKind = 'tool' | 'resource' | 'prompt';

/** The primitive a message uses: tools/call a tool by name, resources/* a resource by URI, prompts/get a prompt. */
export interface PrimitiveUse {
  kind: PrimitiveKind;
  name: string;
}

/** The plural the definitions and access rights key on (`tools`, `resources`, `prompts`). */
export const KIND_GROUP = { tool: 'tools', resource: 'resources', prompt: 'prompts' } as const;

const BY_METHOD: Record<string, { kind: PrimitiveKind; param: 'name' | 'uri' }> = {
  'tools/call': { kind: 'tool', param: 'name' },
  'resources/read': { kind: 'resource', param: 'uri' },
  'resources/subscribe': { kind: 'resource', param: 'uri' },
  'resources/unsubscribe': { kind: 'resource', param: 'uri' },
  'prompts/get': { kind: 'prompt', param: 'name' },
};

/**
 * The primitive a message uses; undefined for the methods that use none (initialize, ping,
 * the lists, notifications), which pass. `invalid` names a primitive method without its name.
 */
export function classify(message: JsonRpcRequest): PrimitiveUse | 'invalid' | undefined {
  const method = BY_METHOD[message.method];
  if (!method) return undefined;
  const value = message.params?.[method.param];
  if (typeof value !== 'string' || value === '') return 'invalid';
  return { kind: method.kind, name: value };
}

/** The label analytics and metrics carry: `tool:get_weather`. */
export function primitiveLabel(use: PrimitiveUse): string {
  return `${use.kind}:${use.name}`;
}
