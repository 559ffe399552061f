import { CUSTOM_KEY, KEYED_API, POLICY, need, session, type WalkContext, type WalkStep } from './walk-step';

const grantsKeyedApi = (_ctx: WalkContext, body: any) =>
  body?.access_rights?.[KEYED_API] ? [] : [`the session does not grant ${KEYED_API}: not the key asked for`];

/** The document's policy example, granting the keyed API. */
export function policy(ctx: WalkContext, operation: string, id = POLICY) {
  const example = ctx.example(operation);
  const [rights] = Object.values(example.access_rights as Record<string, any>);
  return {
    ...example,
    id,
    org_id: ctx.orgId,
    access_rights: { [KEYED_API]: { ...rights, api_id: KEYED_API, api_name: KEYED_API } },
  };
}

export const policyAndKeySteps: WalkStep[] = [
  {
    operation: 'addPolicy',
    request: (ctx) => ({ body: policy(ctx, 'addPolicy') }),
    remember: (ctx, body) => (ctx.ids.policy = body.key),
  },
  { operation: 'getPolicy', request: (ctx) => ({ params: { polID: need(ctx, 'policy') } }) },
  { operation: 'listPolicies', request: () => ({}) },
  {
    operation: 'updatePolicy',
    request: (ctx) => ({ params: { polID: need(ctx, 'policy') }, body: policy(ctx, 'updatePolicy') }),
  },
  {
    operation: 'createKey',
    request: (ctx) => ({ body: session(ctx, 'createKey') }),
    remember: (ctx, body) => {
      ctx.ids.key = body.key;
      ctx.ids.keyHash = body.key_hash;
    },
  },
  {
    operation: 'addKey',
    what: 'with a policy applied',
    request: (ctx) => ({ body: session(ctx, 'addKey', { apply_policies: [need(ctx, 'policy')] }) }),
    remember: (ctx, body) => (ctx.ids.policyKey = body.key),
  },
  {
    operation: 'createCustomKey',
    request: (ctx) => ({ params: { keyID: CUSTOM_KEY }, body: session(ctx, 'createCustomKey') }),
  },
  { operation: 'getKey', request: (ctx) => ({ params: { keyID: need(ctx, 'key') } }), answers: grantsKeyedApi },
  {
    operation: 'getKey',
    what: 'by its hash',
    request: (ctx) => ({ params: { keyID: need(ctx, 'keyHash') }, query: { hashed: 'true' } }),
    answers: grantsKeyedApi,
  },
  {
    operation: 'updateKey',
    request: (ctx) => ({ params: { keyID: need(ctx, 'key') }, body: session(ctx, 'updateKey') }),
  },
  { operation: 'listKeys', request: () => ({}) },
  {
    operation: 'validateAKeyDefinition',
    request: (ctx) => ({ body: session(ctx, 'validateAKeyDefinition') }),
    answers: grantsKeyedApi,
  },
  {
    operation: 'setPoliciesToHashedKey',
    request: (ctx) => ({
      params: { keyID: need(ctx, 'keyHash') },
      body: { ...ctx.example('setPoliciesToHashedKey'), apply_policies: [need(ctx, 'policy')] },
    }),
  },
];
