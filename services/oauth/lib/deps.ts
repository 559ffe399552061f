import type { KeysLookupResult } from '../../../contracts/keys/actions';
import type { Session } from '../../../contracts/keys/session';
import type { OAuthApiSettings } from '../../../contracts/oauth/actions';
import type { KeyChangeNotification } from './keychange-notifier';
import type { OAuthStore } from './oauth-store';

/** What the OAuth logic needs from the rest of the node; the service wires it to actions. */
export interface OAuthDeps {
  store: OAuthStore;
  /** an OAuth API by public or internal id, in the organisation when one is given */
  findApi(apiId: string, orgScope: string | undefined): Promise<OAuthApiSettings | undefined>;
  policyExists(policyId: string, orgId: string): Promise<boolean>;
  /** the APIs a policy of the organisation grants (its access_rights), or undefined when there is none */
  policyApis(policyId: string, orgId: string): Promise<string[] | undefined>;
  /** creates the access token: a key of the keys service */
  createKey(session: Session, orgId: string): Promise<{ key_id: string; key_hash: string }>;
  /** deletes an access token's key (keys.changed makes every gateway forget it) */
  removeKey(keyHash: string): Promise<void>;
  /** a basic-auth user of an organisation (password grant) */
  basicUser(orgId: string, username: string): Promise<KeysLookupResult | null>;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  notify(api: OAuthApiSettings, notification: KeyChangeNotification): void;
  settings: {
    tokenExpire: number;
    refreshTokenExpire: number;
    authCodeExpire: number;
    expiredRetainPeriod: number;
    /** keys are stored hashed: the token listing shows hashes */
    hashKeys: boolean;
    pageSize: number;
  };
  now?: () => number;
}
