import { get } from '../api';
import { NumberField, SelectField, TextField, Toggle } from '../components/form';
import { useLoad } from '../components/status';
import { at, type Definition } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import {
  AUTH_METHODS,
  errorAt,
  HMAC_ALGORITHMS,
  isOn,
  OAUTH_AUTHORIZE_TYPES,
  OAUTH_GRANTS,
  tokenSettingsPath,
  withKeyless,
  withMode,
} from './auth-modes';

type Props = EditorProps & { replace(def: Definition): void };

/** Who may call the API: keyless, or the chosen authentication methods and their settings; mutual TLS on top. */
export function AuthTab(props: Props) {
  const { def, replace, errors, readOnly } = props;
  const keyless = def.use_keyless === true;
  const used = AUTH_METHODS.filter((m) => isOn(def, m));
  const unsupported = ['enable_jwt', 'use_openid', 'use_go_plugin_auth'].filter((flag) => def[flag] === true);
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
        {!keyless && used.length > 1 && (
          <SelectField
            label="Base identity (whose key gives the session)"
            name="base_identity_provided_by"
            value={String(def.base_identity_provided_by ?? '')}
            options={[['', 'The last method to pass'], ...used.map((m) => [m.identity, m.label] as [string, string])]}
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
      {!keyless && used.some((m) => m.id === 'plugin') && <PluginSettings {...props} />}
      <MutualTls {...props} />
    </>
  );
}

/** Text and number inputs bound to a definition path, with the server's error for it. */
function binders({ def, set, errors, readOnly }: Props) {
  return {
    text: (label: string, path: string, hint?: string) => (
      <TextField
        label={label}
        name={path}
        value={String(at(def, path) ?? '')}
        onChange={(v) => set(path, v)}
        error={errorAt(errors, path)}
        hint={hint}
        disabled={readOnly}
      />
    ),
    number: (label: string, path: string, hint?: string) => (
      <NumberField
        label={label}
        name={path}
        value={Number(at(def, path) ?? 0)}
        onChange={(v) => set(path, v)}
        error={errorAt(errors, path)}
        hint={hint}
        disabled={readOnly}
      />
    ),
    toggle: (label: string, path: string) => (
      <Toggle
        label={label}
        name={path}
        checked={at(def, path) === true}
        onChange={(v) => set(path, v)}
        disabled={readOnly}
      />
    ),
    choices: (legend: string, path: string, options: Array<[string, string]>) => {
      const chosen = (at(def, path) ?? []) as string[];
      return (
        <fieldset data-field={path}>
          <legend>{legend}</legend>
          {options.map(([value, label]) => (
            <label key={value}>
              <input
                type="checkbox"
                name={`${path}:${value}`}
                checked={chosen.includes(value)}
                disabled={readOnly}
                onChange={(e: { target: HTMLInputElement }) =>
                  set(path, e.target.checked ? [...chosen, value] : chosen.filter((c) => c !== value))
                }
              />
              {label}
            </label>
          ))}
          {errorAt(errors, path) && <small className="field-error">{errorAt(errors, path)}</small>}
        </fieldset>
      );
    },
  };
}

function TokenSettings(props: Props) {
  const { text, toggle } = binders(props);
  const base = tokenSettingsPath(props.def);
  return (
    <fieldset>
      <legend>Auth token</legend>
      {text('Header carrying the key', `${base}.auth_header_name`, 'Authorization when empty')}
      <div className="grid">
        <div>
          {toggle('Also accept the key as a query parameter', `${base}.use_param`)}
          {at(props.def, `${base}.use_param`) === true &&
            text('Query parameter', `${base}.param_name`, 'The header name when empty; case sensitive')}
        </div>
        <div>
          {toggle('Also accept the key from a cookie', `${base}.use_cookie`)}
          {at(props.def, `${base}.use_cookie`) === true &&
            text('Cookie', `${base}.cookie_name`, 'The header name when empty; case sensitive')}
        </div>
      </div>
    </fieldset>
  );
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
