import { isGwError } from '../../../lib/errors';
import type { Route } from '../../../lib/http/surface';

/**
 * `GET /gw/schema?oasVersion=…`: the JSON schema an OAS API definition must satisfy (OpenAPI
 * 3.0 with `x-gw-api-gateway` described), answered in the reference's shape
 * `{status: "Success", message: "", schema}`; a version with no schema is a 404
 * `{status: "Failed", message}`.
 */
export const gatewaySchemaRoutes: Array<Route<'gateway-admin'>> = [
  {
    method: 'get',
    path: '/schema',
    handle: async ({ query, call }) => {
      const version = typeof query.oasVersion === 'string' ? query.oasVersion : '';
      try {
        const { schema } = await call('apis.oasSchema', version === '' ? {} : { oas_version: version });
        return { body: { status: 'Success', message: '', schema } };
      } catch (err) {
        if (!isGwError(err, 'GW_ERR_APIS_SCHEMA_NOT_FOUND')) throw err;
        return { status: 404, body: { status: 'Failed', message: (err as Error).message } };
      }
    },
  },
];
