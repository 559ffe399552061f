import { useState } from 'react';
import { Field, SelectField } from '../components/form';
import type { EditorProps } from '../pages/ApiDesigner';
import { errorAt, JWT_SIGNING_METHODS } from './auth-modes';
import { binders } from './binders';
import { CredentialLocation } from './CredentialLocation';
import { unshownErrors } from './errors';
import { jwtSourceText, jwtSourceValue, mapOf, rowsOf } from './jwt-fields';
import { CommaListField, PolicyChoices, PolicyMapRows, usePolicies } from './PolicyFields';

/** The JWT fields this form edits; a server error under any other `jwt_` path is listed at the top. */
const SHOWN = [
  'jwt_signing_method',
  'jwt_source',
  'jwt_identity_base_field',
  'jwt_policy_field_name',
  'jwt_client_base_field',
  'jwt_default_policies',
  'jwt_scope_claim_name',
  'jwt_scope_to_policy_mapping',
  'jwt_expires_at_validation_skew',
  'jwt_issued_at_validation_skew',
  'jwt_not_before_validation_skew',
  'jwt_allowed_issuers',
  'jwt_allowed_audiences',
];

/**
 * JSON Web Tokens: how the signature is checked (method and source), which claims name the
 * identity and the policies, clock skews, and where the token is read.
 */
export function JwtSettings(props: EditorProps) {
  const { def, set, errors, readOnly } = props;
  const { text, number, toggle } = binders(props);
  const policies = usePolicies('jwt-policies');
  const [source, setSource] = useState(() => jwtSourceText(def.jwt_source));
  const other = unshownErrors(errors, 'jwt_', (path) =>
    SHOWN.some((field) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`)),
  );
  const sourceError = errorAt(errors, 'jwt_source');
  return (
    <fieldset>
      <legend>JSON Web Token (JWT)</legend>
      {other.map((message) => (
        <p key={message} className="field-error">
          {message}
        </p>
      ))}
      <SelectField
        label="Signing method"
        name="jwt_signing_method"
        value={String(def.jwt_signing_method ?? '')}
        options={JWT_SIGNING_METHODS}
        onChange={(v) => set('jwt_signing_method', v)}
        error={errorAt(errors, 'jwt_signing_method')}
        disabled={readOnly}
      />
      <Field
        label="Signature source"
        name="jwt_source"
        error={sourceError}
        hint="The shared secret (HMAC), a PEM public key, or a JWKS URL. Empty: the token's kid names a key holding the secret."
      >
        {(a) => (
          <textarea
            {...a}
            rows={4}
            value={source}
            disabled={readOnly}
            spellCheck={false}
            onChange={(e: { target: HTMLTextAreaElement }) => {
              setSource(e.target.value);
              set('jwt_source', jwtSourceValue(e.target.value));
            }}
          />
        )}
      </Field>
      {toggle('Skip the kid header (identify by the claims below even when a kid is present)', 'jwt_skip_kid')}
      <div className="grid">
        {text('Identity claim', 'jwt_identity_base_field', 'Whose session this is; sub when empty', 'sub')}
        {text('Client id claim', 'jwt_client_base_field', 'A claim naming a key whose policies apply')}
        {text('Policy claim', 'jwt_policy_field_name', 'A claim naming the policy to apply')}
      </div>
      <PolicyChoices
        legend="Default policies (when the token names none)"
        name="jwt_default_policies"
        value={Array.isArray(def.jwt_default_policies) ? (def.jwt_default_policies as string[]) : []}
        onChange={(ids) => set('jwt_default_policies', ids)}
        policies={policies}
        error={errorAt(errors, 'jwt_default_policies')}
        disabled={readOnly}
      />
      <fieldset>
        <legend>Scopes to policies</legend>
        {text('Scope claim', 'jwt_scope_claim_name', 'scope when empty', 'scope')}
        <PolicyMapRows
          name="jwt_scope_to_policy_mapping"
          keyLabel="Scope"
          addLabel="Add a scope"
          initial={rowsOf(def.jwt_scope_to_policy_mapping)}
          onChange={(rows) => set('jwt_scope_to_policy_mapping', mapOf(rows))}
          policies={policies}
          error={errorAt(errors, 'jwt_scope_to_policy_mapping')}
          disabled={readOnly}
        />
      </fieldset>
      <div className="grid">
        <CommaListField
          label="Allowed issuers (iss)"
          name="jwt_allowed_issuers"
          value={def.jwt_allowed_issuers}
          onChange={(list) => set('jwt_allowed_issuers', list)}
          hint="Comma separated; empty: any issuer"
          error={errorAt(errors, 'jwt_allowed_issuers')}
          disabled={readOnly}
        />
        <CommaListField
          label="Allowed audiences (aud)"
          name="jwt_allowed_audiences"
          value={def.jwt_allowed_audiences}
          onChange={(list) => set('jwt_allowed_audiences', list)}
          hint="Comma separated; empty: any audience"
          error={errorAt(errors, 'jwt_allowed_audiences')}
          disabled={readOnly}
        />
      </div>
      <div className="grid">
        {number('Expiry skew (s)', 'jwt_expires_at_validation_skew', 'Accepts exp this long past')}
        {number('Issued-at skew (s)', 'jwt_issued_at_validation_skew', 'Accepts iat this far ahead')}
        {number('Not-before skew (s)', 'jwt_not_before_validation_skew', 'Accepts nbf this far ahead')}
      </div>
      <CredentialLocation {...props} legend="Where the token is read" base="auth_configs.jwt" what="token" />
    </fieldset>
  );
}
