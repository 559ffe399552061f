import { apiSteps } from './api-steps';
import { policy, policyAndKeySteps } from './key-steps';
import { deleteSteps, orgCertAndNodeSteps } from './node-steps';
import { oauthSteps } from './oauth-steps';
import { KEYED_API, OAUTH_API, classicApi, need, type WalkStep } from './walk-step';

export type { WalkContext, WalkRequest, WalkStep } from './walk-step';

/** Creations, then reads and updates of what they made. */
export const WALK: WalkStep[] = [...apiSteps, ...policyAndKeySteps, ...oauthSteps, ...orgCertAndNodeSteps];

/** The deletions, walked after the error answers (which need the OAuth API still there). */
export const DELETIONS: WalkStep[] = deleteSteps;

const unknown = (operation: string, params: Record<string, string>, expect = 404): WalkStep => ({
  operation,
  what: 'an unknown id',
  expect,
  request: () => ({ params }),
});
const notJson = (operation: string, text: string, expect = 400): WalkStep => ({
  operation,
  what: 'a body that is not JSON',
  expect,
  request: () => ({ text }),
});

/**
 * The document's error answers that cost one request (403 without the secret is added for every
 * guarded operation by the spec). Where the document lists no error for the case, the status is
 * the one the reference's handler (gateway/api.go, gateway/cert.go) answers.
 */
export const ERRORS: WalkStep[] = [
  { operation: 'hello', what: 'POST', method: 'POST', expect: 405, request: () => ({}) },
  unknown('getApi', { apiID: 'no-such-api' }),
  {
    operation: 'updateApi',
    what: 'an unknown id',
    expect: 404,
    request: (ctx) => ({ params: { apiID: 'no-such-api' }, body: classicApi(ctx, 'updateApi', 'no-such-api', {}) }),
  },
  unknown('deleteApi', { apiID: 'no-such-api' }),
  unknown('listApiVersions', { apiID: 'no-such-api' }),
  unknown('getOASApi', { apiID: 'no-such-api' }),
  unknown('deleteOASApi', { apiID: 'no-such-api' }),
  unknown('downloadApiOASPublic', { apiID: 'no-such-api' }),
  unknown('getPolicy', { polID: 'no-such-policy' }),
  // the reference writes the policy's file whichever the method, so PUT creates
  {
    operation: 'updatePolicy',
    what: 'an unknown id',
    request: (ctx) => ({ params: { polID: 'no-such-policy' }, body: policy(ctx, 'updatePolicy', 'no-such-policy') }),
  },
  // the reference finds no file to delete: 500 "Delete failed"
  unknown('deletePolicy', { polID: 'no-such-policy' }, 500),
  {
    operation: 'updatePolicy',
    what: "an id other than the body's",
    expect: 400,
    request: (ctx) => ({ params: { polID: need(ctx, 'policy') }, body: policy(ctx, 'updatePolicy', 'another-policy') }),
  },
  {
    operation: 'updateApi',
    what: "an id other than the body's",
    expect: 400,
    request: (ctx) => ({ params: { apiID: KEYED_API }, body: classicApi(ctx, 'updateApi', 'another-api', {}) }),
  },
  unknown('getKey', { keyID: 'no-such-key' }),
  unknown('deleteKey', { keyID: 'no-such-key' }),
  unknown('getOAuthClient', { apiID: OAUTH_API, keyName: 'no-such-client' }),
  unknown('deleteOAuthClient', { apiID: OAUTH_API, keyName: 'no-such-client' }),
  unknown('getOrgKey', { keyID: 'no-such-org' }),
  unknown('listCertsWithIDs', { certID: 'no-such-cert' }),
  // deleting what is not there is done: 200 "removed"
  unknown('deleteCerts', { certID: 'no-such-cert' }, 200),
  // an API without cached responses has none to drop: 200 "cache invalidated"
  unknown('invalidateCache', { apiID: 'no-such-api' }, 200),
  // gateway/api.go handleAddApi: a version needs a name (422) and a base the node serves (400)
  {
    operation: 'createApi',
    what: 'a version without new_version_name',
    expect: 422,
    request: (ctx) => ({
      query: { base_api_id: KEYED_API },
      body: classicApi(ctx, 'createApi', 'unnamed-version', {}),
    }),
  },
  {
    operation: 'createApi',
    what: 'a version of an unknown base',
    expect: 400,
    request: (ctx) => ({
      query: { base_api_id: 'no-such-api', new_version_name: 'v9' },
      body: classicApi(ctx, 'createApi', 'orphan-version', {}),
    }),
  },
  notJson('createApi', '{"api_id": '),
  notJson('updateApi', '{"api_id": '),
  notJson('addPolicy', '{"id": '),
  notJson('addKey', '{"rate": '),
  // the reference answers 500 "Unmarshalling failed" here, a status the document lists
  notJson('createOAuthClient', '{"api_id": ', 500),
  // gateway/cert.go answers whatever the certificate store refuses with 403
  { operation: 'addCert', what: 'not a certificate', expect: 403, request: () => ({ text: 'not a certificate' }) },
];
