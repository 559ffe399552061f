import type { AnalyticsActions } from './analytics/actions';
import type { ApisActions } from './apis/actions';
import type { AuthActions } from './auth/actions';
import type { CertsActions } from './certs/actions';
import type { KeysActions } from './keys/actions';
import type { OrgSessionsActions } from './keys/org-sessions';
import type { LimiterActions } from './limiter/actions';
import type { OAuthActions } from './oauth/actions';
import type { OrgsActions } from './orgs/actions';
import type { UsersActions } from './users/actions';
import type { StreamsActions } from './streams/actions';
import type { WebhooksActions } from './webhooks/actions';

/**
 * Every action on the bus: its full name → the params it takes and the result it answers. Each
 * service declares its part in `contracts/<service>/actions.ts`. Callers go through
 * lib/bus/call.ts and services type their handlers with lib/bus/actions.ts, both against this
 * map, so renaming an action or changing a result fails `tsc` on both sides.
 */
export interface ActionMap
  extends
    ApisActions,
    AuthActions,
    CertsActions,
    KeysActions,
    OrgSessionsActions,
    LimiterActions,
    OAuthActions,
    OrgsActions,
    UsersActions,
    WebhooksActions,
    AnalyticsActions,
    StreamsActions {}

export type ActionName = keyof ActionMap;
export type ActionParams<A extends ActionName> = ActionMap[A]['params'];
export type ActionResult<A extends ActionName> = ActionMap[A]['result'];
