import type { ActionName, ActionParams, ActionResult } from '../../contracts/actions';

/** The params argument of an action: optional when every param is. */
export type ParamsArg<A extends ActionName> =
  Record<never, never> extends ActionParams<A> ? [params?: ActionParams<A>] : [params: ActionParams<A>];

/** A call of an action of the map: `tsc` checks its name, its params and the use of its result. */
export type Call = <A extends ActionName>(action: A, ...params: ParamsArg<A>) => Promise<ActionResult<A>>;

/** What can call actions: a broker, or a Moleculer context (which keeps the call in its trace). */
export interface Bus {
  call(action: string, params?: unknown): Promise<unknown>;
}

/** Calls an action through the map of contracts/actions.ts. */
export function callAction<A extends ActionName>(
  bus: Bus,
  action: A,
  ...params: ParamsArg<A>
): Promise<ActionResult<A>> {
  return bus.call(action, params[0] ?? {}) as Promise<ActionResult<A>>;
}

/** `callAction` bound to one broker or context, for code that is handed a `call`. */
export function callerOf(bus: Bus): Call {
  return (action, ...params) => callAction(bus, action, ...params);
}
