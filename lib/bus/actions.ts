import type { ActionSchema, Context, Service } from 'moleculer';
import type { ActionName, ActionParams, ActionResult } from '../../contracts/actions';

/** A handler of action A as the map declares it. */
export type ActionHandlerOf<A extends ActionName> = (
  this: Service,
  ctx: Context<ActionParams<A>>,
) => ActionResult<A> | Promise<ActionResult<A>>;

/** Moleculer's action schema (validator params and all), with a handler typed by the map. */
export type ActionDefinition<A extends ActionName> =
  ActionHandlerOf<A> | (Omit<ActionSchema, 'handler'> & { handler: ActionHandlerOf<A> });

/**
 * The `actions` of service S, keyed by their name inside the service (`'policies.list'` for
 * `keys.policies.list`). A service writes `actions: { … } satisfies ServiceActions<'keys'>`:
 * an action missing from the map or from the service, a renamed one, or a handler whose
 * params or result differ from the map fails `tsc`.
 */
export type ServiceActions<S extends string> = {
  [A in ActionName as A extends `${S}.${infer Local}` ? Local : never]: ActionDefinition<A>;
} & ThisType<Service>;
