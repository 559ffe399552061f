import { TextField } from '../components/form';
import type { EditorProps } from '../pages/ApiDesigner';
import { errorAt } from './auth-modes';
import { binders } from './binders';
import { unshownErrors } from './errors';
import { clientIdRows, clientIdsOf } from './jwt-fields';
import { PolicyMapRows, usePolicies } from './PolicyFields';

interface Provider {
  issuer: string;
  client_ids: Record<string, string>;
}

/**
 * OpenID Connect: the providers whose ID tokens are accepted (`openid_options.providers`), each
 * with the client ids it may issue for and the policy each client's users get.
 */
export function OpenIdSettings(props: EditorProps) {
  const { def, set, errors, readOnly } = props;
  const { toggle } = binders(props);
  const policies = usePolicies('openid-policies');
  const providers: Provider[] = Array.isArray(def.openid_options?.providers) ? def.openid_options.providers : [];
  const setProviders = (next: Provider[]) => set('openid_options.providers', next);
  const update = (index: number, patch: Partial<Provider>) =>
    setProviders(providers.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const other = unshownErrors(
    errors,
    'openid',
    (path) => path.startsWith('openid_options.providers[') || path === 'openid_options.providers',
  );
  return (
    <fieldset>
      <legend>OpenID Connect</legend>
      {other.map((message) => (
        <p key={message} className="field-error">
          {message}
        </p>
      ))}
      {providers.map((provider, index) => (
        // Keyed by the count too: removing a provider remounts the rest, so each client list
        // starts again from its own provider instead of keeping its neighbour's rows.
        <fieldset key={`${index}/${providers.length}`} aria-label={`Provider ${index + 1}`}>
          <legend>Provider {index + 1}</legend>
          <TextField
            label="Issuer"
            name={`openid_options.providers[${index}].issuer`}
            value={provider.issuer ?? ''}
            onChange={(issuer) => update(index, { issuer })}
            error={errors[`openid_options.providers[${index}].issuer`]}
            hint="The iss of its ID tokens, e.g. https://accounts.example.com"
            disabled={readOnly}
          />
          <PolicyMapRows
            name={`openid_options.providers[${index}].client_ids`}
            keyLabel="Client id"
            addLabel="Add a client"
            initial={clientIdRows(provider.client_ids)}
            onChange={(rows) => update(index, { client_ids: clientIdsOf(rows) })}
            policies={policies}
            error={errorAt(errors, `openid_options.providers[${index}].client_ids`)}
            disabled={readOnly}
          />
          {!readOnly && (
            <button
              type="button"
              className="secondary outline small"
              onClick={() => setProviders(providers.filter((_, i) => i !== index))}
            >
              Remove provider {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      {errors['openid_options.providers'] && (
        <small className="field-error">{errors['openid_options.providers']}</small>
      )}
      {!readOnly && (
        <button
          type="button"
          className="outline small"
          onClick={() => setProviders([...providers, { issuer: '', client_ids: {} }])}
        >
          Add a provider
        </button>
      )}
      {toggle(
        'Segregate sessions by client (one session per user and client id)',
        'openid_options.segregate_by_client',
      )}
    </fieldset>
  );
}
