import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const example = (name: string) => readFileSync(`services/orgs/opa-examples/${name}.rego`, 'utf8');
const EXPLODES = 'numbers.range(1, 3000)';

describe("an organisation's policy-engine rules (open_policy) on the dashboard API", () => {
  let node: TestNode;
  let orgA: Tenant;
  let orgB: Tenant;
  const call =
    (headers: Record<string, string>) =>
    (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers });
  let adminA: ReturnType<typeof call>;
  let adminB: ReturnType<typeof call>;

  const createUser = async (as: ReturnType<typeof call>, fields: Record<string, unknown>) => {
    const email = `u-${Math.random().toString(36).slice(2, 10)}@policy.test`;
    const res = await as('/users', {
      method: 'POST',
      body: { email_address: email, first_name: 'P', last_name: 'User', ...fields },
    });
    assert.equal(res.status, 200, res.text);
    const meta = res.json.Meta as { id: string; access_key: string };
    return { id: meta.id, email, api: call({ authorization: meta.access_key }) };
  };
  const setRules = async (as: ReturnType<typeof call>, rules: string, extra: Record<string, unknown> = {}) => {
    const res = await as('/org/opa', { method: 'PUT', body: { open_policy: { enabled: true, rules, ...extra } } });
    assert.equal(res.status, 200, res.text);
  };
  const disable = async (as: ReturnType<typeof call>) => {
    const current = (await as('/org/opa')).json.open_policy;
    assert.equal(
      (await as('/org/opa', { method: 'PUT', body: { open_policy: { ...current, enabled: false } } })).status,
      200,
    );
  };
  const denied = (res: { status: number; json: unknown; text: string }, message: string) => {
    assert.equal(res.status, 403, res.text);
    assert.deepEqual(res.json, { Status: 'Error', Message: message, Meta: null });
  };

  before(async () => {
    node = await startTestNode();
    orgA = await createTenant(node.dashboardUrl, node.adminHeaders, 'Policy A');
    orgB = await createTenant(node.dashboardUrl, node.adminHeaders, 'Policy B');
    adminA = call(orgA.headers);
    adminB = call(orgB.headers);
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  describe('the default rule file', () => {
    const writerPermissions = { users: 'write', apis: 'write' };

    it('does nothing while the organisation has not enabled it', async () => {
      const writer = await createUser(adminA, { user_permissions: writerPermissions });
      // Lowering its own permissions: the default rules refuse any change of one's own permissions.
      const own = await writer.api(`/users/${writer.id}`, {
        method: 'PUT',
        body: { user_permissions: { ...writerPermissions, apis: 'read' } },
      });
      assert.equal(own.status, 200, own.text);
    });

    it('once enabled, denies what a permission level can not say, with the rule message', async () => {
      const defaults = (await adminA('/org/opa')).json.open_policy;
      assert.equal(defaults.enabled, false);
      assert.equal(defaults.rules, readFileSync('services/orgs/default-opa-rules.rego', 'utf8'));
      await setRules(adminA, defaults.rules);
      const writer = await createUser(adminA, { user_permissions: writerPermissions });
      const other = await createUser(adminA, { user_permissions: { apis: 'read' } });

      denied(
        await writer.api(`/users/${writer.id}`, {
          method: 'PUT',
          body: { user_permissions: { ...writerPermissions, hooks: 'write' } },
        }),
        'You can not change your own permissions',
      );
      assert.deepEqual(
        (await adminA(`/users/${writer.id}`)).json.user_permissions,
        writerPermissions,
        'nothing changed',
      );

      const email = 'would-be-admin@policy.test';
      denied(
        await writer.api('/users', {
          method: 'POST',
          body: { email_address: email, user_permissions: { IsAdmin: 'admin' } },
        }),
        'Only administrators can grant the IsAdmin permission',
      );
      assert.ok(
        !(await adminA('/users?p=0')).json.users.some((u: { email_address: string }) => u.email_address === email),
        'nothing stored',
      );

      denied(
        await writer.api(`/users/${other.id}/actions/reset`, { method: 'POST', body: { new_password: 'taken-over' } }),
        'You do not have permission to reset the password for other users.',
      );
      denied(
        await writer.api('/apis', {
          method: 'POST',
          body: keylessApi('Foreign', '/foreign-a', 'http://127.0.0.1:9', { org_id: orgB.orgId }),
        }),
        `You can not write objects of another organisation (${orgB.orgId})`,
      );

      // What the rules allow still works, for the writer and for administrators.
      assert.equal((await writer.api('/apis')).status, 200);
      assert.equal(
        (await writer.api(`/users/${other.id}`, { method: 'PUT', body: { first_name: 'Renamed' } })).status,
        200,
      );
      assert.equal(
        (await writer.api(`/users/${writer.id}/actions/reset`, { method: 'POST', body: { new_password: 'mine' } }))
          .status,
        200,
      );
      assert.equal(
        (
          await adminA('/users', {
            method: 'POST',
            body: { email_address: 'second-admin@policy.test', user_permissions: { IsAdmin: 'admin' } },
          })
        ).status,
        200,
      );
    });

    it("never applies one organisation's rules to another", async () => {
      const writerB = await createUser(adminB, { user_permissions: writerPermissions });
      const own = await writerB.api(`/users/${writerB.id}`, {
        method: 'PUT',
        body: { user_permissions: { ...writerPermissions, apis: 'read' } },
      });
      assert.equal(own.status, 200, own.text);
    });

    it('stops applying as soon as the organisation disables it', async () => {
      const writer = await createUser(adminA, { user_permissions: writerPermissions });
      const changeOwn = () =>
        writer.api(`/users/${writer.id}`, {
          method: 'PUT',
          body: { user_permissions: { ...writerPermissions, apis: 'read' } },
        });
      assert.equal((await changeOwn()).status, 403);
      await disable(adminA);
      assert.equal((await changeOwn()).status, 200);
    });
  });

  describe('rules an organisation writes (the examples in services/orgs/opa-examples)', () => {
    afterEach(async () => {
      await disable(adminA);
      await disable(adminB);
    });

    it('allows, or denies with the message of the rule on the request body', async () => {
      await setRules(adminA, example('no-keyless-apis'));
      const keyless = await adminA('/apis', {
        method: 'POST',
        body: keylessApi('Open one', '/open-one', 'http://127.0.0.1:9'),
      });
      denied(keyless, 'You cannot create a keyless API.');
      assert.ok(
        !(await adminA('/apis?p=0')).json.apis.some(
          (a: { api_definition: { name: string } }) => a.api_definition.name === 'Open one',
        ),
        'nothing stored',
      );

      const keyed = await adminA('/apis', {
        method: 'POST',
        body: keylessApi('Keyed one', '/keyed-one', 'http://127.0.0.1:9', { use_keyless: false }),
      });
      assert.equal(keyed.status, 200, keyed.text);
      assert.equal(
        (await adminB('/apis', { method: 'POST', body: keylessApi('Open in B', '/open-in-b', 'http://127.0.0.1:9') }))
          .status,
        200,
        'organisation B has no rules',
      );
    });

    it('decides on the user’s permissions, additional ones included', async () => {
      const api = await adminA('/apis', {
        method: 'POST',
        body: keylessApi('Keys target', '/keys-target', 'http://127.0.0.1:9', { use_keyless: false }),
      });
      const session = {
        access_rights: { [api.json.ID]: { api_id: api.json.ID, versions: ['Default'] } },
        rate: 10,
        per: 1,
        quota_max: -1,
      };
      await adminA('/org/permissions', {
        method: 'PUT',
        body: { additional_permissions: { key_manager: 'Key manager' } },
      });
      await setRules(adminA, example('key-managers-only'));
      const clerk = await createUser(adminA, { user_permissions: { keys: 'write', apis: 'read' } });

      denied(
        await clerk.api('/keys', { method: 'POST', body: session }),
        `${clerk.email} may read keys but not change them: ask for the key_manager permission`,
      );

      await adminA(`/users/${clerk.id}`, {
        method: 'PUT',
        body: { user_permissions: { keys: 'write', apis: 'read', key_manager: 'write' } },
      });
      const created = await clerk.api('/keys', { method: 'POST', body: session });
      assert.equal(created.status, 200, created.text);
    });

    it('uses a helper function with two bodies and the user group', async () => {
      const groupOf = async (name: string) =>
        (
          await adminA('/usergroups', {
            method: 'POST',
            body: { name, user_permissions: { apis: 'write', hooks: 'write' } },
          })
        ).json.Meta as string;
      const platform = await createUser(adminA, { group_id: await groupOf('Platform') });
      const product = await createUser(adminA, { group_id: await groupOf('Product') });
      const hook = await adminA('/hooks', {
        method: 'POST',
        body: { name: 'h', method: 'POST', target_path: 'http://127.0.0.1:9/h' },
      });
      const hookId = hook.json.Meta as string;
      await setRules(adminA, example('platform-deletes'));

      denied(
        await product.api(`/hooks/${hookId}`, { method: 'DELETE' }),
        `Only the Platform group deletes /api/hooks/${hookId}`,
      );
      const api = await product.api('/apis', {
        method: 'POST',
        body: keylessApi('Product API', '/product-api', 'http://127.0.0.1:9', { use_keyless: false }),
      });
      assert.equal(api.status, 200, 'creating is not protected');
      denied(
        await product.api(`/apis/${api.json.Meta}`, { method: 'DELETE' }),
        `Only the Platform group deletes /api/apis/${api.json.Meta}`,
      );
      assert.equal((await platform.api(`/hooks/${hookId}`, { method: 'DELETE' })).status, 200);
      assert.equal((await platform.api(`/apis/${api.json.Meta}`, { method: 'DELETE' })).status, 200);
    });
  });

  describe('rule files gw refuses', () => {
    const refuse = async (rules: string, message: string) => {
      const before = (await adminA('/org/opa')).json;
      const res = await adminA('/org/opa', { method: 'PUT', body: { open_policy: { enabled: true, rules } } });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json, { Status: 'Error', Message: message, Meta: null });
      assert.deepEqual((await adminA('/org/opa')).json, before, 'nothing stored');
    };

    it('refuses a construct outside the subset, naming it and its line', async () => {
      await refuse(
        'package dashboard_users\n\ndeny["x"] { input.user.active with input as {} }',
        "Invalid policy rules: line 3, column 31: the 'with' keyword is not supported by gw's policy engine",
      );
      await refuse(
        'package dashboard_users\n\ndeny[m] {\n  m := TykAPIGet(input.request.path)\n}',
        "Invalid policy rules: line 4, column 8: the reference dashboard's function 'TykAPIGet' is not supported by gw's policy engine",
      );
      await refuse(
        'package dashboard_users\n\npatch_request[x] { x := {"api_definition": {"active": false}} }',
        "Invalid policy rules: line 3, column 1: 'patch_request' rules (changing the request) are not supported by gw's policy engine",
      );
    });

    it('refuses enabled rules that deny their own saving (nobody could replace them)', async () => {
      await refuse(
        'package dashboard_users\ndeny["read only"] { input.request.method != "GET" }',
        'Invalid policy rules: they deny the request that saves them (read only), so nobody could change them afterwards',
      );
      const disabled = await adminA('/org/opa', {
        method: 'PUT',
        body: {
          open_policy: {
            enabled: false,
            rules: 'package dashboard_users\ndeny["read only"] { input.request.method != "GET" }',
          },
        },
      });
      assert.equal(disabled.status, 200, 'stored disabled, they lock nobody out');
    });

    it('refuses a parse error with its line and column', async () => {
      await refuse(
        'package dashboard_users\ndeny["x"] {\n  input.request.method == "GET"\n',
        "Invalid policy rules: line 4, column 1: expected '}' before the end of the file",
      );
      await refuse(
        'package dashboard_users\ndeny["x"] { input.a == }',
        "Invalid policy rules: line 2, column 24: expected a value but found '}'",
      );
    });

    it('stops a rule set that would run forever: refused at save, or a 500 on the request that triggers it', async () => {
      const started = Date.now();
      const always = `package dashboard_users\ndeny["never"] { some i in ${EXPLODES}; some j in ${EXPLODES}; i + j < 0 }`;
      const saved = await adminA('/org/opa', {
        method: 'PUT',
        body: { open_policy: { enabled: true, rules: always } },
      });
      assert.equal(saved.status, 400, saved.text);
      assert.match(
        saved.json.Message,
        /^Invalid policy rules: evaluating them for this request failed: evaluation stopped after/,
      );

      const onDelete = `package dashboard_users\ndeny["never"] { input.request.method == "DELETE"; some i in ${EXPLODES}; some j in ${EXPLODES}; i + j < 0 }`;
      await setRules(adminA, onDelete);
      const res = await adminA('/hooks/whatever', { method: 'DELETE' });
      assert.equal(res.status, 500, res.text);
      assert.match(
        res.json.Message,
        /^The organisation's policy rules could not be evaluated: evaluation stopped after/,
      );
      assert.equal((await adminA('/apis')).status, 200, 'other requests are served');
      await disable(adminA);
      assert.ok(Date.now() - started < 10_000);
    });
  });
});

describe('policy-engine debug mode', () => {
  it('logs each decision with its input, without secrets', async () => {
    let node: TestNode | undefined;
    const printed = await consoleDuring(async () => {
      node = await startTestNode({ logLevel: 'info' });
      const org = await createTenant(node.dashboardUrl, node.adminHeaders, 'Debugged');
      const admin = (path: string, options: { method?: string; body?: unknown } = {}) =>
        http(`${node!.dashboardUrl}/api${path}`, { ...options, headers: org.headers });
      const rules =
        'package dashboard_users\ndeny["no resets of others"] { endswith(input.request.path, "/actions/reset"); not startswith(input.request.path, concat("", ["/api/users/", input.user.id])) }';
      assert.equal(
        (await admin('/org/opa', { method: 'PUT', body: { open_policy: { enabled: true, debug: true, rules } } }))
          .status,
        200,
      );
      assert.equal((await admin('/org/opa')).json.open_policy.debug, true);
      const other = await admin('/users', {
        method: 'POST',
        body: { email_address: 'other@debug.test', password: 'first-secret' },
      });
      assert.equal(
        (
          await admin(`/users/${other.json.Meta.id}/actions/reset`, {
            method: 'POST',
            body: { new_password: 'hunter2-secret' },
          })
        ).status,
        403,
      );
      assert.equal((await admin('/apis')).status, 200);
    }).finally(async () => {
      if (node) {
        await node.stop();
        removeDir(node.dataDir);
      }
    });
    assert.match(printed, /policy rules: deny POST \/api\/users\/[^/]+\/actions\/reset/);
    assert.match(printed, /no resets of others/);
    assert.match(printed, /policy rules: allow GET \/api\/apis/);
    assert.match(printed, /\[redacted\]/);
    assert.doesNotMatch(printed, /hunter2-secret|first-secret/);
    assert.doesNotMatch(printed, /correct horse/);
  });
});

/** What the console shows while `work` runs (the node's logger writes to the console). */
async function consoleDuring(work: () => Promise<void>): Promise<string> {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((name) => console[name]);
  const seen: string[] = [];
  for (const name of methods) console[name] = (...args: unknown[]) => void seen.push(format(...args));
  try {
    await work();
  } finally {
    methods.forEach((name, i) => (console[name] = saved[i]!));
  }
  return seen.join('\n');
}
