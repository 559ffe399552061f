import { http } from './http';

export interface Tenant {
  orgId: string;
  userId: string;
  accessKey: string;
  /** headers of that user's dashboard calls */
  headers: Record<string, string>;
}

/** Creates an organisation and a dashboard user in it through the admin API, as an operator would. */
export async function createTenant(
  dashboardUrl: string,
  adminHeaders: Record<string, string>,
  name = 'Acme',
): Promise<Tenant> {
  const org = await http(`${dashboardUrl}/admin/organisations`, {
    method: 'POST',
    headers: adminHeaders,
    body: { owner_name: name },
  });
  if (org.status !== 200) throw new Error(`org create failed: ${org.status} ${org.text}`);
  const orgId = org.json.Meta as string;
  const email = `${name.toLowerCase().replace(/\W+/g, '')}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = await http(`${dashboardUrl}/admin/users`, {
    method: 'POST',
    headers: adminHeaders,
    body: {
      first_name: 'Ada',
      last_name: 'Admin',
      email_address: email,
      org_id: orgId,
      password: 'correct horse',
      active: true,
    },
  });
  if (user.status !== 200) throw new Error(`user create failed: ${user.status} ${user.text}`);
  const accessKey = user.json.Meta.access_key as string;
  return { orgId, userId: user.json.Meta.id, accessKey, headers: { authorization: accessKey } };
}

/** A minimal keyless API definition in the dashboard's wrapper. */
export function keylessApi(name: string, listenPath: string, targetUrl: string, extra: Record<string, unknown> = {}) {
  return {
    api_definition: {
      name,
      use_keyless: true,
      active: true,
      proxy: { listen_path: listenPath, target_url: targetUrl, strip_listen_path: true },
      ...extra,
    },
  };
}
