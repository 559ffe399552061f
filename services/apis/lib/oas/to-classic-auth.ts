import { ApisErrors } from '../../errors';
import { pointer, type OasDocument, type SecurityScheme } from './document';
import { credentialConfig } from './credential-location';
import { on, type GatewayExtension, type NameToggle, type SchemeSettings } from './gateway-extension';
import { jwtSettings } from './to-classic-jwt';
import { schemeKind } from './validate-document';

type Classic = Record<string, unknown>;

/**
 * `server.authentication` as classic fields: each enabled entry of `securitySchemes` is read
 * with the kind of the document's own `components.securitySchemes` entry of that name (apiKey
 * and http bearer: auth token; http bearer with bearerFormat JWT: JWT; http basic: basic;
 * oauth2: OAuth 2.0; mutualTLS: client certificates), `hmac` turns on signature checking. Authentication not enabled = keyless.
 */
export function authenticationToClassic(document: OasDocument, extension: GatewayExtension): Classic {
  const auth = extension.server.authentication;
  if (!on(auth)) return { use_keyless: true };
  const out: Classic = { use_keyless: false, strip_auth_data: auth!.stripAuthorizationData === true, auth_configs: {} };
  const configs = out.auth_configs as Classic;
  const declared = document.components?.securitySchemes ?? {};
  let enabled = 0;
  let keyModes = 0;
  for (const [name, settings] of Object.entries(auth!.securitySchemes ?? {})) {
    if (!on(settings)) continue;
    enabled++;
    const scheme = declared[name];
    const kind = schemeKind(scheme);
    if (kind !== 'certificate') keyModes++;
    if (kind === 'token') Object.assign(out, tokenSettings(scheme, settings, configs));
    else if (kind === 'basic') Object.assign(out, basicSettings(settings, configs));
    else if (kind === 'oauth') Object.assign(out, oauthSettings(scheme, settings));
    else if (kind === 'certificate') Object.assign(out, certificateSettings(extension));
    else if (kind === 'jwt')
      Object.assign(
        out,
        jwtSettings(
          settings,
          configs,
          pointer('x-gw-api-gateway', 'server', 'authentication', 'securitySchemes', name),
        ),
      );
  }
  if (on(auth!.hmac)) {
    enabled++;
    keyModes++;
    Object.assign(out, {
      enable_signature_checking: true,
      hmac_allowed_algorithms: auth!.hmac!.allowedAlgorithms ?? [],
      hmac_allowed_clock_skew: auth!.hmac!.allowedClockSkew ?? 0,
    });
  }
  if (enabled === 0) {
    throw ApisErrors.invalidOas([
      `${pointer('x-gw-api-gateway', 'server', 'authentication')}: authentication is enabled but no security scheme (nor hmac) is enabled`,
    ]);
  }
  // Certificates alone: no key is asked for, as a classic API with only use_mutual_tls_auth.
  if (keyModes === 0) out.use_keyless = true;
  if (auth!.baseIdentityProvider) out.base_identity_provided_by = auth!.baseIdentityProvider;
  return out;
}

function tokenSettings(scheme: SecurityScheme, settings: SchemeSettings, configs: Classic): Classic {
  // Where the document says the key goes, unless the extension says otherwise.
  const declared = scheme.type === 'http' ? { in: 'header', name: 'Authorization' } : scheme;
  const authToken = credentialConfig(declared, settings);
  if (settings.enableClientCertificate === true) authToken.use_certificate = true;
  configs.authToken = authToken;
  return { use_standard_auth: true, auth: { auth_header_name: authToken.auth_header_name } };
}

function basicSettings(settings: SchemeSettings, configs: Classic): Classic {
  const toggle = (t: NameToggle | undefined) =>
    t === undefined ? undefined : { enabled: t.enabled === true, name: t.name };
  configs.basic = { header: toggle(settings.header), query: toggle(settings.query), cookie: toggle(settings.cookie) };
  const body = settings.extractCredentialsFromBody;
  const basicAuth: Classic = { disable_caching: settings.disableCaching === true, cache_ttl: settings.cacheTTL ?? 0 };
  if (on(body))
    Object.assign(basicAuth, {
      extract_from_body: true,
      body_user_regexp: body!.userRegexp ?? '',
      body_password_regexp: body!.passwordRegexp ?? '',
    });
  return { use_basic_auth: true, basic_auth: basicAuth };
}

const GRANTS: Record<string, string> = {
  authorizationCode: 'authorization_code',
  clientCredentials: 'client_credentials',
  password: 'password',
  implicit: 'token',
};

function oauthSettings(scheme: SecurityScheme, settings: SchemeSettings): Classic {
  const flows = Object.keys(scheme.flows ?? {});
  const accessTypes = flows.map((flow) => GRANTS[flow]).filter((grant) => grant && grant !== 'token');
  const authorizeTypes = settings.allowedAuthorizeTypes ?? (flows.includes('implicit') ? ['code', 'token'] : ['code']);
  const out: Classic = {
    use_oauth2: true,
    oauth_meta: {
      allowed_access_types: accessTypes.includes('authorization_code')
        ? [...accessTypes, 'refresh_token']
        : accessTypes,
      allowed_authorize_types: authorizeTypes,
      auth_login_redirect: settings.authLoginRedirect ?? '',
    },
  };
  if (settings.requirePkce === true) (out.oauth_meta as Classic).require_pkce = true;
  if (settings.notifications)
    out.notifications = {
      shared_secret: settings.notifications.sharedSecret ?? '',
      oauth_on_keychange_url: settings.notifications.onKeyChangeUrl ?? '',
    };
  return out;
}

/** A client certificate from `server.clientCertificates.allowlist` is the credential (classic `use_mutual_tls_auth`). */
function certificateSettings(extension: GatewayExtension): Classic {
  return { use_mutual_tls_auth: true, client_certificates: extension.server.clientCertificates?.allowlist ?? [] };
}
