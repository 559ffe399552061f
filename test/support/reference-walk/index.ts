import { apiSteps } from './api-steps';
import { policyAndKeySteps } from './key-steps';
import { deleteSteps, orgCertAndNodeSteps } from './node-steps';
import { oauthSteps } from './oauth-steps';
import { OAUTH_API, type WalkRequest, type WalkStep } from './walk-step';

export type { WalkContext, WalkRequest, WalkStep } from './walk-step';

/** Creations, then reads and updates of what they made. */
export const WALK: WalkStep[] = [...apiSteps, ...policyAndKeySteps, ...oauthSteps, ...orgCertAndNodeSteps];

/** The deletions, walked after the error answers (which need the OAuth API still there). */
export const DELETIONS: WalkStep[] = deleteSteps;

/** Requests with ids nothing has: the document's 404s. */
export const UNKNOWN_IDS: Array<{ operation: string; request: WalkRequest }> = [
  { operation: 'getApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'deleteApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'listApiVersions', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'getOASApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'deleteOASApi', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'downloadApiOASPublic', request: { params: { apiID: 'no-such-api' } } },
  { operation: 'getPolicy', request: { params: { polID: 'no-such-policy' } } },
  { operation: 'getKey', request: { params: { keyID: 'no-such-key' } } },
  { operation: 'deleteKey', request: { params: { keyID: 'no-such-key' } } },
  { operation: 'getOAuthClient', request: { params: { apiID: OAUTH_API, keyName: 'no-such-client' } } },
  { operation: 'deleteOAuthClient', request: { params: { apiID: OAUTH_API, keyName: 'no-such-client' } } },
  { operation: 'getOrgKey', request: { params: { keyID: 'no-such-org' } } },
  { operation: 'listCertsWithIDs', request: { params: { certID: 'no-such-cert' } } },
];

/** Requests whose body is not what the operation takes: the document's 400s. */
export const MALFORMED: Array<{ operation: string; request: WalkRequest }> = [
  { operation: 'createApi', request: { text: '{"api_id": ' } },
  { operation: 'addPolicy', request: { text: '{"id": ' } },
  { operation: 'addKey', request: { text: '{"rate": ' } },
  { operation: 'createOAuthClient', request: { text: '{"api_id": ' } },
];
