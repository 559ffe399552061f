import { strict as assert } from 'node:assert';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

describe('admin API (/admin)', () => {
  let node: TestNode;
  let admin: (path: string, options?: { method?: string; body?: unknown }) => ReturnType<typeof http>;

  before(async () => {
    node = await startTestNode();
    admin = (path, options = {}) =>
      http(`${node.dashboardUrl}/admin${path}`, { ...options, headers: node.adminHeaders });
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  describe('authentication', () => {
    it('refuses a missing admin-auth header with 401 in the envelope shape', async () => {
      const res = await http(`${node.dashboardUrl}/admin/organisations`);
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, {
        Status: 'Error',
        Message: 'admin-auth header missing: send the admin secret',
        Meta: null,
      });
    });

    it('refuses a wrong admin-auth secret with 403', async () => {
      const res = await http(`${node.dashboardUrl}/admin/organisations`, {
        headers: { 'admin-auth': 'not-the-secret' },
      });
      assert.equal(res.status, 403);
      assert.equal(res.json.Status, 'Error');
      assert.equal(res.json.Message, 'admin-auth secret is not valid');
    });
  });

  describe('organisations', () => {
    it('creates an organisation with Message "Org created" and its new id as Meta', async () => {
      const res = await admin('/organisations/', {
        method: 'POST',
        body: { owner_name: 'Globex Corp', cname: 'api.globex.test' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.json.Status, 'OK');
      assert.equal(res.json.Message, 'Org created');
      assert.match(res.json.Meta, /^[0-9a-f]{24}$/);

      const fetched = await admin(`/organisations/${res.json.Meta}`);
      assert.equal(fetched.status, 200);
      assert.equal(fetched.json.id, res.json.Meta);
      assert.equal(fetched.json.owner_name, 'Globex Corp');
      assert.equal(fetched.json.owner_slug, 'globex-corp');
      assert.equal(fetched.json.cname, 'api.globex.test');
      assert.deepEqual(fetched.json.apis, []);
      assert.equal(fetched.json.hybrid_enabled, false);
    });

    it('accepts a chosen id and refuses it a second time', async () => {
      const first = await admin('/organisations', { method: 'POST', body: { id: 'initech', owner_name: 'Initech' } });
      assert.equal(first.json.Meta, 'initech');
      const second = await admin('/organisations', {
        method: 'POST',
        body: { id: 'initech', owner_name: 'Initech again' },
      });
      assert.equal(second.status, 400);
      assert.equal(second.json.Message, 'An organisation with id initech already exists');
      assert.equal((await admin('/organisations/initech')).json.owner_name, 'Initech');
    });

    it('lists organisations as {organisations, pages}', async () => {
      const res = await admin('/organisations/');
      assert.equal(res.status, 200);
      assert.ok(Array.isArray(res.json.organisations));
      assert.ok(res.json.organisations.some((org: { owner_name: string }) => org.owner_name === 'Initech'));
      assert.equal(res.json.pages, Math.ceil(res.json.organisations.length / 10));
    });

    it('updates and deletes an organisation', async () => {
      const { json } = await admin('/organisations', { method: 'POST', body: { owner_name: 'Umbrella' } });
      const updated = await admin(`/organisations/${json.Meta}`, {
        method: 'PUT',
        body: { owner_name: 'Umbrella Health', developer_quota: 5 },
      });
      assert.deepEqual(updated.json, { Status: 'OK', Message: 'Org updated', Meta: null });
      const fetched = await admin(`/organisations/${json.Meta}`);
      assert.equal(fetched.json.owner_name, 'Umbrella Health');
      assert.equal(fetched.json.developer_quota, 5);

      const deleted = await admin(`/organisations/${json.Meta}`, { method: 'DELETE' });
      assert.deepEqual(deleted.json, { Status: 'OK', Message: 'Org deleted', Meta: null });
      const gone = await admin(`/organisations/${json.Meta}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.json.Message, `Organisation not found: ${json.Meta}`);
    });

    it('answers 404 for updating or deleting an unknown organisation', async () => {
      assert.equal((await admin('/organisations/nope', { method: 'PUT', body: { owner_name: 'X' } })).status, 404);
      assert.equal((await admin('/organisations/nope', { method: 'DELETE' })).status, 404);
    });

    const badBodies: Array<[string, string, string]> = [
      ['malformed JSON', '{"owner_name": ', 'Malformed JSON in request body'],
      ['an array', '[1,2]', 'Request body must be a JSON object, not an array'],
      ['a string', '"acme"', 'Request body must be a JSON object, not a string'],
      ['an empty body', '', 'Request body is empty: send a JSON object'],
    ];
    for (const [what, body, message] of badBodies) {
      it(`refuses ${what} with 400`, async () => {
        const res = await admin('/organisations', { method: 'POST', body });
        assert.equal(res.status, 400);
        assert.equal(res.json.Status, 'Error');
        assert.ok(res.json.Message.startsWith(message), res.json.Message);
        assert.equal(res.json.Meta, null);
      });
    }

    it('lists every failed field check in Errors', async () => {
      const res = await admin('/organisations', { method: 'POST', body: { owner_slug: 42, hybrid_enabled: 'yes' } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json.Errors, [
        "The 'organisation.owner_name' field is required.",
        "The 'organisation.owner_slug' field must be a string.",
        "The 'organisation.hybrid_enabled' field must be a boolean.",
      ]);
    });
  });

  describe('users', () => {
    let orgId: string;
    before(async () => {
      orgId = (await admin('/organisations', { method: 'POST', body: { owner_name: 'Hooli' } })).json.Meta;
    });

    it('creates a dashboard user with its access key in Meta, shown this once, and never returns the password', async () => {
      const res = await admin('/users', {
        method: 'POST',
        body: {
          first_name: 'Gavin',
          last_name: 'Belson',
          email_address: 'gavin@hooli.test',
          password: 's3cret!',
          org_id: orgId,
          active: true,
          user_permissions: { IsAdmin: 'admin' },
        },
      });
      assert.equal(res.status, 200);
      assert.equal(res.json.Message, 'User created');
      const user = res.json.Meta;
      assert.match(user.id, /^[0-9a-f]{24}$/);
      assert.match(user.access_key, /^[0-9a-f]{32}$/);
      assert.equal(user.password, '');
      assert.equal(user.email_address, 'gavin@hooli.test');
      assert.deepEqual(user.user_permissions, { IsAdmin: 'admin' });

      const fetched = await admin(`/users/${user.id}`);
      assert.equal(fetched.status, 200);
      assert.equal(fetched.json.email_address, 'gavin@hooli.test');
      assert.equal(fetched.json.access_key, '', 'the key is shown at creation only');
      assert.equal(fetched.json.password, '');
      assert.ok(!fetched.text.includes('s3cret!'));
      assert.ok(!fetched.text.includes(user.access_key));
      const withKey = await http(`${node.dashboardUrl}/api/users/${user.id}`, {
        headers: { authorization: user.access_key },
      });
      assert.equal(withKey.status, 200, 'the key from the creation answer signs the user in');
      assert.equal(withKey.json.id, user.id);
    });

    it('creates a user without a password', async () => {
      const res = await admin('/users', {
        method: 'POST',
        body: { email_address: 'nopass@hooli.test', org_id: orgId },
      });
      assert.equal(res.status, 200);
      assert.equal(res.json.Meta.active, true);
    });

    it('refuses a user in an organisation that does not exist', async () => {
      const res = await admin('/users', { method: 'POST', body: { email_address: 'x@y.test', org_id: 'missing-org' } });
      assert.equal(res.status, 400);
      assert.equal(res.json.Message, 'Organisation missing-org does not exist');
    });

    it('refuses a second user with the same email in one organisation', async () => {
      const body = { email_address: 'twice@hooli.test', org_id: orgId };
      assert.equal((await admin('/users', { method: 'POST', body })).status, 200);
      const again = await admin('/users', { method: 'POST', body });
      assert.equal(again.status, 400);
      assert.equal(again.json.Message, 'User email already exists for this organisation: twice@hooli.test');
    });

    it('refuses an invalid email and an unknown permission level', async () => {
      const res = await admin('/users', {
        method: 'POST',
        body: { email_address: 'not-an-email', org_id: orgId, user_permissions: { apis: 'owner' } },
      });
      assert.equal(res.status, 400);
      assert.equal(res.json.Errors.length, 2);
      assert.match(res.json.Errors[0], /user\.email_address/);
      assert.match(res.json.Errors[1], /user\.user_permissions\.apis/);
    });

    it('answers 404 for an unknown user id', async () => {
      const res = await admin('/users/000000000000000000000000');
      assert.equal(res.status, 404);
      assert.equal(res.json.Status, 'Error');
    });
  });
});
