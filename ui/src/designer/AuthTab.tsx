import { get } from '../api';
import { SelectField, TextField, Toggle } from '../components/form';
import { useLoad } from '../components/status';
import { at, type Definition } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import {
  AUTH_METHODS,
  errorAt,
  HMAC_ALGORITHMS,
  identityChoices,
  isOn,
  OAUTH_AUTHORIZE_TYPES,
  OAUTH_GRANTS,
  tokenSettingsPath,
  withKeyless,
  withMode,
} from './auth-modes';
import { binders } from './binders';
import { CredentialLocation } from './CredentialLocation';
import { JwtSettings } from './JwtSettings';
import { OpenIdSettings } from './OpenIdSettings';

type Props = EditorProps & { replace(def: Definition): void };

/** Who may call the API: keyless, or the chosen authentication methods and their settings; mutual TLS on top. */
export function AuthTab(props: Props) {
  const { def, replace, errors, readOnly } = props;
  const keyless = def.use_keyless === true;
  const used = AUTH_METHODS.filter((m) => isOn(def, m));
  const identities = identityChoices(def);
  const unsupported = ['use_go_plugin_auth'].filter((flag) => def[flag] === true);
  return (
    <>
      <fieldset>
        <Toggle
          label="Open API (keyless): no credentials are checked"
          name="use_keyless"
          checked={keyless}
          onChange={(v) => replace(withKeyless(def, v))}
          disabled={readOnly}
        />
        {unsupported.length > 0 && (
          <p className="field-error">
            This definition switches on {unsupported.join(', ')}, which gw does not serve; choose one of the methods
            below.
          </p>
        )}
        {!keyless && (
          <fieldset aria-label="Authentication methods">
            <legend>Authentication methods</legend>
            {AUTH_METHODS.map((mode) => (
              <label key={mode.id} data-field={mode.flag}>
                <input
                  type="checkbox"
                  name={mode.flag}
                  checked={isOn(def, mode)}
                  disabled={readOnly}
                  onChange={(e: { target: HTMLInputElement }) => replace(withMode(def, mode, e.target.checked))}
                />
                {mode.label}
              </label>
            ))}
            <small>
              With several methods a request must pass them all. With none chosen, the auth token is checked.
            </small>
          </fieldset>
        )}
        {identities.length > 0 && (
          <SelectField
            label="Base identity (whose key gives the session)"
            name="base_identity_provided_by"
            value={String(def.base_identity_provided_by ?? '')}
            options={[['', 'The last method to pass'], ...identities]}
            onChange={(v) => props.set('base_identity_provided_by', v)}
            error={errorAt(errors, 'base_identity_provided_by')}
            disabled={readOnly}
          />
        )}
        {!keyless && (
          <Toggle
            label="Strip the credentials before proxying"
            name="strip_auth_data"
            checked={def.strip_auth_data === true}
            onChange={(v) => props.set('strip_auth_data', v)}
            disabled={readOnly}
          />
        )}
      </fieldset>
      {!keyless && used.some((m) => m.id === 'token') && <TokenSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'basic') && <BasicSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'hmac') && <HmacSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'oauth2') && <OAuthSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'jwt') && <JwtSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'oidc') && <OpenIdSettings {...props} />}
      {!keyless && used.some((m) => m.id === 'plugin') && <PluginSettings {...props} />}
      <MutualTls {...props} />
    </>
  );
}

function TokenSettings(props: Props) {
  return <CredentialLocation {...props} legend="Auth token" base={tokenSettingsPath(props.def)} what="key" />;
}

function BasicSettings(props: Props) {
  const { text, number, toggle } = binders(props);
  return (
    <fieldset>
      <legend>Basic authentication</legend>
      <p>
        <small>
          Users are keys made with a username and password (Keys, or POST /api/apis/keys/basic/&lt;username&gt;).
        </small>
      </p>
      <div className="grid">
        {number('Cache credentials for (seconds)', 'basic_auth.cache_ttl', '60 when 0')}
        <div>{toggle('Do not cache credentials', 'basic_auth.disable_caching')}</div>
      </div>
      {toggle('Read the credentials from the request body', 'basic_auth.extract_from_body')}
      {at(props.def, 'basic_auth.extract_from_body') === true && (
        <div className="grid">
          {text(
            'Username expression',
            'basic_auth.body_user_regexp',
            'One group holding the value, e.g. <User>(.*)</User>',
          )}
          {text('Password expression', 'basic_auth.body_password_regexp', 'One group holding the value')}
        </div>
      )}
    </fieldset>
  );
}

function HmacSettings(props: Props) {
  const { number, choices } = binders(props);
  return (
    <fieldset>
      <legend>HMAC request signatures</legend>
      {choices(
        'Allowed algorithms (none chosen: all)',
        'hmac_allowed_algorithms',
        HMAC_ALGORITHMS.map((a) => [a, a]),
      )}
      {number('Allowed clock skew (ms)', 'hmac_allowed_clock_skew', '0: any age of the signed Date header')}
    </fieldset>
  );
}

function OAuthSettings(props: Props) {
  const { text, choices } = binders(props);
  return (
    <fieldset>
      <legend>OAuth 2.0</legend>
      <div className="grid">
        {choices('Allowed grant types', 'oauth_meta.allowed_access_types', OAUTH_GRANTS)}
        {choices('Allowed authorize response types', 'oauth_meta.allowed_authorize_types', OAUTH_AUTHORIZE_TYPES)}
      </div>
      {text('Login redirect', 'oauth_meta.auth_login_redirect', 'Where /oauth/authorize sends the user to sign in')}
      <div className="grid">
        {text(
          'Key change notification URL',
          'notifications.oauth_on_keychange_url',
          'Told when a token is issued or revoked',
        )}
        {text('Notification shared secret', 'notifications.shared_secret')}
      </div>
    </fieldset>
  );
}

function PluginSettings(props: Props) {
  const { def, set, errors, readOnly } = props;
  const error = errorAt(errors, 'custom_middleware.auth_check');
  return (
    <fieldset>
      <legend>Custom plugin</legend>
      <div className="grid">
        <TextField
          label="Plugin path"
          name="custom_middleware.auth_check.path"
          value={String(at(def, 'custom_middleware.auth_check.path') ?? '')}
          onChange={(v) => set('custom_middleware.auth_check.path', v)}
          error={error}
          hint="Inside the plugins folder, or an allowed package"
          disabled={readOnly}
        />
        <TextField
          label="Plugin name"
          name="custom_middleware.auth_check.name"
          value={String(at(def, 'custom_middleware.auth_check.name') ?? '')}
          onChange={(v) => set('custom_middleware.auth_check.name', v)}
          disabled={readOnly}
        />
      </div>
    </fieldset>
  );
}

function MutualTls({ def, set, errors, readOnly }: Props) {
  const on = def.use_mutual_tls_auth === true;
  const certs = useLoad(
    () =>
      on
        ? get<{ certs: Array<{ id: string; subject_cn: string; not_after: string }> }>('/certs?p=0&mode=detailed')
        : Promise.resolve({ certs: [] }),
    `mtls-${on}`,
  );
  const chosen = (def.client_certificates ?? []) as string[];
  return (
    <fieldset>
      <legend>Mutual TLS</legend>
      <Toggle
        label="Clients must present one of these certificates"
        name="use_mutual_tls_auth"
        checked={on}
        onChange={(v) => set('use_mutual_tls_auth', v)}
        disabled={readOnly}
      />
      {on && certs.error && <p className="field-error">Could not list certificates: {certs.error}</p>}
      {on && certs.data?.certs.length === 0 && (
        <p>No certificates yet: upload the clients' certificates under Certificates.</p>
      )}
      {on &&
        certs.data?.certs.map((cert) => (
          <label key={cert.id}>
            <input
              type="checkbox"
              name={`client_certificates:${cert.id}`}
              checked={chosen.includes(cert.id)}
              disabled={readOnly}
              onChange={(e: { target: HTMLInputElement }) =>
                set(
                  'client_certificates',
                  e.target.checked ? [...chosen, cert.id] : chosen.filter((id) => id !== cert.id),
                )
              }
            />
            {cert.subject_cn || cert.id} <small>(until {cert.not_after})</small>
          </label>
        ))}
      {errorAt(errors, 'client_certificates') && (
        <small className="field-error">{errorAt(errors, 'client_certificates')}</small>
      )}
    </fieldset>
  );
}
