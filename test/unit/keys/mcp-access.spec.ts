import { strict as assert } from 'node:assert';
import type { AccessDefinition, Policy } from '../../../contracts/keys/session';
import { applyPolicies } from '../../../services/keys/lib/apply-policies';
import { assertMcpAccessValid } from '../../../services/keys/lib/mcp-access-checks';

const policy = (id: string, access: Partial<AccessDefinition>): Policy => ({
  id,
  name: id,
  org_id: 'org',
  rate: 0,
  per: 0,
  quota_max: -1,
  quota_renewal_rate: -1,
  throttle_interval: -1,
  throttle_retry_limit: -1,
  max_query_depth: -1,
  access_rights: { mcp: { api_id: 'mcp', ...access } },
  active: true,
  tags: [],
});

describe('keys: MCP access rights and primitive limits', () => {
  describe('merged from policies', () => {
    it('unions the allowed and blocked lists of each kind; one side empty leaves the other', () => {
      const effective = applyPolicies({ access_rights: {} }, [
        policy('a', { mcp_access_rights: { tools: { allowed: ['get_.*'] }, prompts: { blocked: ['p'] } } }),
        policy('b', { mcp_access_rights: { tools: { allowed: ['list'], blocked: ['get_secret'] } } }),
      ]);
      assert.deepEqual(effective.access_rights!.mcp.mcp_access_rights, {
        tools: { allowed: ['get_.*', 'list'], blocked: ['get_secret'] },
        prompts: { blocked: ['p'] },
      });
    });

    it('keeps per primitive the limit with the higher rate, and every primitive either names', () => {
      const effective = applyPolicies({ access_rights: {} }, [
        policy('a', {
          mcp_primitives: [
            { type: 'tool', name: 'search', limit: { rate: 10, per: 60 } },
            { type: 'prompt', name: 'review', limit: { rate: 1, per: 1 } },
          ],
        }),
        policy('b', {
          mcp_primitives: [
            { type: 'tool', name: 'search', limit: { rate: 100, per: 60 } },
            { type: 'resource', name: 'search', limit: { rate: 1, per: 60 } },
          ],
        }),
      ]);
      const byKey = Object.fromEntries(
        effective.access_rights!.mcp.mcp_primitives!.map((entry) => [`${entry.type}:${entry.name}`, entry.limit.rate]),
      );
      assert.deepEqual(byKey, { 'tool:search': 100, 'prompt:review': 1, 'resource:search': 1 });
    });

    it('takes a single policy as it is', () => {
      const rights = { tools: { blocked: ['drop_.*'] } };
      const effective = applyPolicies({ access_rights: {} }, [policy('a', { mcp_access_rights: rights })]);
      assert.deepEqual(effective.access_rights!.mcp.mcp_access_rights, rights);
    });
  });

  describe('checked when saved', () => {
    const check = (access: Record<string, unknown>) => () => assertMcpAccessValid('mcp', { api_id: 'mcp', ...access });

    it('accepts exact names, patterns and well-formed limits', () => {
      check({
        mcp_access_rights: { tools: { allowed: ['get_weather', 'list_.*'], blocked: [] }, resources: {} },
        mcp_primitives: [{ type: 'resource', name: 'file:///a', limit: { rate: 1, per: 1, quota_max: 10 } }],
      })();
    });

    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a list that is not an object', { mcp_access_rights: [] }, /mcp_access_rights must be an object/],
      ['an unknown kind', { mcp_access_rights: { tool: {} } }, /mcp_access_rights\.tool is not a primitive kind/],
      [
        'an unknown list',
        { mcp_access_rights: { tools: { denied: ['a'] } } },
        /mcp_access_rights\.tools\.denied is not a known field/,
      ],
      [
        'a pattern that does not compile',
        { mcp_access_rights: { tools: { blocked: ['ok', 'get_(('] } } },
        /access_rights\.mcp\.mcp_access_rights\.tools\.blocked\[1\] is not a valid pattern/,
      ],
      [
        'a lookahead (RE2 has none)',
        { mcp_access_rights: { prompts: { allowed: ['(?=x)'] } } },
        /prompts\.allowed\[0\] is not a valid pattern/,
      ],
      ['a pattern that is not a string', { mcp_access_rights: { tools: { allowed: [1] } } }, /non-empty string/],
      [
        'an unknown primitive type',
        { mcp_primitives: [{ type: 'tools', name: 'a', limit: { rate: 1, per: 1 } }] },
        /mcp_primitives\[0\]\.type: invalid MCP primitive type "tools": must be one of tool, resource, prompt/,
      ],
      ['a limit without name', { mcp_primitives: [{ type: 'tool', limit: { rate: 1, per: 1 } }] }, /\.name must/],
      [
        'a rate that is not a number',
        { mcp_primitives: [{ type: 'tool', name: 'a', limit: { rate: '5', per: 1 } }] },
        /mcp_primitives\[0\]\.limit\.rate must be a number/,
      ],
      ['primitives that are not a list', { mcp_primitives: {} }, /mcp_primitives must be a list/],
    ];
    for (const [what, access, message] of refused)
      it(`refuses ${what} with a 400 naming the field`, () => {
        assert.throws(check(access), (err: { code: number; message: string }) => {
          assert.equal(err.code, 400);
          assert.match(err.message, message);
          return true;
        });
      });
  });
});
