import { GraphQLError } from 'graphql';
import type { Caller } from '../../../contracts/users/actions';
import type { Call } from '../../../lib/bus/call';
import { toProblem } from '../../../lib/http/problem';
import { requirePermission } from '../routes/dashboard';

/** What every resolver gets: who asks, and the bus. */
export interface GraphqlContext {
  caller: Caller;
  call: Call;
  /** reports an error that is a bug (shown to the client as an internal error) */
  onUnexpected(err: unknown): void;
}

type Permission = 'apis' | 'keys' | 'policies' | 'analytics';

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  503: 'SERVICE_UNAVAILABLE',
};

/** The `extensions.code` of an error with this HTTP status. */
export function codeOf(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

/**
 * A root field's resolver: the caller must hold `permission` at read level, as on the REST
 * route, else the field is null with a FORBIDDEN error and the other fields still resolve.
 * Errors of the actions keep their message and become GraphQL errors with a code.
 */
export function guarded<A, R>(permission: Permission, resolve: (args: A, ctx: GraphqlContext) => Promise<R>) {
  return async (args: A, ctx: GraphqlContext): Promise<R> => {
    try {
      requirePermission(ctx.caller, { name: permission, level: 'read' });
      return await resolve(args, ctx);
    } catch (err) {
      if (err instanceof GraphQLError) throw err;
      const problem = toProblem(err, ctx.onUnexpected);
      const code = codeOf(problem.status);
      // A catalogued service error also names itself, as err.code does on the bus.
      const type = (err as { type?: unknown }).type;
      const extensions =
        typeof type === 'string' && type.startsWith('GW_ERR_')
          ? { code, status: problem.status, type }
          : { code, status: problem.status };
      throw new GraphQLError(problem.message, { extensions });
    }
  };
}

export function page(value: number | undefined): number {
  const n = value ?? 1;
  if (n < 1)
    throw new GraphQLError(`page must be 1 or more, got ${n}`, { extensions: { code: 'BAD_REQUEST', status: 400 } });
  return n;
}
