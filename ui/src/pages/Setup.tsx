import { useState } from 'react';
import { adminRequest } from '../admin-api';
import { ApiError, messageOf, post, type Envelope } from '../api';
import { TextField } from '../components/form';

type FieldName =
  'admin_secret' | 'owner_name' | 'first_name' | 'last_name' | 'email_address' | 'password' | 'confirm_password';
type Values = Record<FieldName, string>;
type Problems = Partial<Record<FieldName, string>>;

const EMPTY: Values = {
  admin_secret: '',
  owner_name: '',
  first_name: '',
  last_name: '',
  email_address: '',
  password: '',
  confirm_password: '',
};

/**
 * First start: the bootstrap the reference gateway's dashboard offers, done through the public
 * admin API only, so `curl` can do the same (README.md#a-5-minute-tour): an organisation
 * (`POST /admin/organisations`), its first user with a password (`POST /admin/users`; a user
 * without permissions administers the organisation), then the usual sign-in (`POST /api/login`).
 * Unlike the reference's bootstrap page, this needs the admin secret: whoever reaches a fresh
 * node first cannot claim it.
 */
export function Setup({ onSignedIn }: { onSignedIn(): void }) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const field = (name: FieldName) => ({
    name,
    value: values[name],
    error: problems[name],
    onChange: (value: string) => setValues((v) => ({ ...v, [name]: value })),
  });

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setFailure('');
    const found = checkLocally(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await setUp(values);
      // The secret has done its job: drop it from memory before the signed-in pages mount.
      setValues(EMPTY);
      onSignedIn();
    } catch (err) {
      if (err instanceof SetupProblem) setProblems({ [err.field]: err.message });
      else setFailure(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <main className="container sign-in setup">
      <article>
        <header>
          <h1>Set up gw</h1>
          <p>Create your organisation and its first administrator. You will be signed in as that user.</p>
        </header>
        <form onSubmit={submit} aria-label="Set up gw" noValidate>
          <p data-testid="where-is-the-secret">
            <small>
              The admin secret is the <code>admin-auth</code> line <code>npm start</code> printed in its console output
              at first start. gw keeps it as <code>adminSecret</code> in <code>secrets.json</code> in its data folder (
              <code>./data</code>, or <code>GW_DATA_DIR</code>); when <code>GW_ADMIN_SECRET</code> is set, it is that
              value.
            </small>
          </p>
          <TextField
            label="Admin secret"
            type="password"
            autoComplete="off"
            {...field('admin_secret')}
            hint="Sent to the admin API only; the browser does not keep it."
          />
          <TextField label="Organisation name" {...field('owner_name')} />
          <div className="grid">
            <TextField label="First name (optional)" autoComplete="given-name" {...field('first_name')} />
            <TextField label="Last name (optional)" autoComplete="family-name" {...field('last_name')} />
          </div>
          <TextField
            label="Email address"
            type="email"
            autoComplete="username"
            {...field('email_address')}
            hint="You sign in with it."
          />
          <TextField label="Password" type="password" autoComplete="new-password" {...field('password')} />
          <TextField
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            {...field('confirm_password')}
          />
          {failure && (
            <p className="field-error" role="alert">
              {failure}
            </p>
          )}
          <button type="submit" aria-busy={busy} disabled={busy}>
            Set up gw
          </button>
        </form>
        <footer>
          <a href="#/">Back to sign in</a>
        </footer>
      </article>
    </main>
  );
}

/** A refusal that belongs next to one field. */
class SetupProblem extends Error {
  constructor(
    readonly field: FieldName,
    message: string,
  ) {
    super(message);
  }
}

/** What the browser can tell without asking the server. */
function checkLocally(values: Values): Problems {
  const problems: Problems = {};
  if (!values.admin_secret.trim()) problems.admin_secret = 'Enter the admin secret.';
  if (!values.owner_name.trim()) problems.owner_name = 'Name your organisation.';
  if (!values.email_address.trim()) problems.email_address = 'Enter your email address.';
  else if (!/^[^\s@]+@[^\s@]+$/.test(values.email_address.trim()))
    problems.email_address = 'This is not an email address.';
  if (!values.password) problems.password = 'Choose a password.';
  else if (values.confirm_password !== values.password) problems.confirm_password = 'The passwords differ.';
  return problems;
}

/** The three calls a curl user would make; an organisation left without a user is removed again. */
async function setUp(values: Values): Promise<void> {
  const secret = values.admin_secret.trim();
  let orgId: string;
  try {
    orgId = (
      await adminRequest<Envelope<string>>('POST', '/organisations', secret, { owner_name: values.owner_name.trim() })
    ).Meta;
  } catch (err) {
    throw asFieldProblem(err, 'owner_name');
  }
  const user = {
    org_id: orgId,
    email_address: values.email_address.trim(),
    password: values.password,
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    active: true,
  };
  try {
    await adminRequest('POST', '/users', secret, user);
  } catch (err) {
    await adminRequest('DELETE', `/organisations/${encodeURIComponent(orgId)}`, secret).catch(() => undefined);
    throw asFieldProblem(err, 'email_address');
  }
  try {
    await post('/login', { email_address: user.email_address, password: user.password });
  } catch (err) {
    throw new Error(
      `Your organisation and user were created, but signing in failed: ${messageOf(err)} Sign in with your email address and password.`,
    );
  }
}

/** A wrong secret belongs to the secret field; a refused value to the field it names. */
function asFieldProblem(err: unknown, fallback: FieldName): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 401 || err.status === 403)
    return new SetupProblem(
      'admin_secret',
      `The server refused this admin secret (${err.message}). Copy it again from the console output or secrets.json.`,
    );
  if (err.status !== 400) return err;
  // Schema checks name their field ("The 'user.email_address' field must …"), others in the text.
  const [path, text] = Object.entries(err.fields()).find(([name]) => /^(user|organisation)\./.test(name)) ?? [];
  const named = FIELDS.find((name) => (path ? path.endsWith(`.${name}`) : err.message.includes(name)));
  return new SetupProblem(named ?? fallback, text ?? err.message);
}

const FIELDS = ['first_name', 'last_name', 'password', 'owner_name', 'email_address'] as const;
