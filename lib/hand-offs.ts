import type { HandOffMap } from '../contracts/hand-offs';

/** The hand-offs (contracts/hand-offs.ts) that the services of one node offer each other. */
export interface HandOffs {
  provide<K extends keyof HandOffMap>(name: K, handOff: HandOffMap[K]): void;
  withdraw(name: keyof HandOffMap): void;
  /** undefined when this node does not run the service that offers it */
  get<K extends keyof HandOffMap>(name: K): HandOffMap[K] | undefined;
}

export function createHandOffs(): HandOffs {
  const offered = new Map<keyof HandOffMap, HandOffMap[keyof HandOffMap]>();
  return {
    provide: (name, handOff) => void offered.set(name, handOff),
    withdraw: (name) => void offered.delete(name),
    get: <K extends keyof HandOffMap>(name: K) => offered.get(name) as HandOffMap[K] | undefined,
  };
}
