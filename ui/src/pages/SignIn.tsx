import { useState } from 'react';
import { messageOf, post } from '../api';
import { TextField } from '../components/form';

/** Email and password against POST /api/login, which sets the session cookie. */
export function SignIn({ onSignedIn }: { onSignedIn(): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await post('/login', { email_address: email, password });
      onSignedIn();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <main className="container sign-in">
      <article>
        <header>
          <h1>gw dashboard</h1>
          <p>Sign in to manage your APIs, keys and analytics.</p>
        </header>
        <form onSubmit={submit} aria-label="Sign in">
          <TextField
            label="Email address"
            name="email_address"
            type="email"
            value={email}
            onChange={setEmail}
            required
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            value={password}
            onChange={setPassword}
            required
          />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" aria-busy={busy} disabled={busy}>
            Sign in
          </button>
        </form>
        <footer>
          <p>
            <strong>First start?</strong> No user exists yet on a fresh gw: <a href="#/setup">Set up gw</a> with the
            admin secret <code>npm start</code> printed, to create your organisation and your user.
          </p>
          <small>Single sign-on users arrive here signed in through their provider's link.</small>
        </footer>
      </article>
    </main>
  );
}
