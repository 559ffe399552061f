import { useEffect, useState } from 'react';
import { ApiError, get, messageOf, post } from './api';
import { ErrorBox, Loading } from './components/status';
import { Layout } from './Layout';
import { Setup } from './pages/Setup';
import { SignIn } from './pages/SignIn';
import { useRoute } from './router';
import { allows, SessionProvider, type Me } from './session';

type State =
  | { phase: 'checking' }
  | { phase: 'signed-out'; error?: string }
  | { phase: 'signed-in'; me: Me }
  | { phase: 'failed'; error: string };

/** Asks the server who is signed in (the session cookie is HTTP-only), then shows the pages or the sign-in form. */
export function App() {
  const [state, setState] = useState<State>({ phase: 'checking' });
  const route = useRoute();
  const check = () =>
    get<Me>('/me').then(
      (me) => setState({ phase: 'signed-in', me }),
      (err) =>
        setState(
          err instanceof ApiError && (err.status === 401 || err.status === 403)
            ? { phase: 'signed-out' }
            : { phase: 'failed', error: messageOf(err) },
        ),
    );
  useEffect(() => {
    void check();
  }, []);
  const signOut = async () => {
    try {
      await post('/logout', {});
      window.location.hash = '';
      setState({ phase: 'signed-out' });
    } catch (err) {
      setState({ phase: 'failed', error: messageOf(err) });
    }
  };
  // The setup route has done its job once someone is signed in: open the APIs page.
  const signedInAfterSetup = () => {
    window.location.hash = '#/apis';
    void check();
  };

  if (state.phase === 'checking')
    return (
      <main className="container">
        <Loading what="your session" />
      </main>
    );
  if (state.phase === 'failed')
    return (
      <main className="container">
        <ErrorBox error={state.error} onRetry={() => void check()} />
      </main>
    );
  if (state.phase === 'signed-out') {
    if (route[0] === 'setup') return <Setup onSignedIn={signedInAfterSetup} />;
    return <SignIn onSignedIn={() => void check()} />;
  }
  const me = state.me;
  return (
    <SessionProvider value={{ me, can: (name, level) => allows(me, name, level), signOut: () => void signOut() }}>
      <Layout />
    </SessionProvider>
  );
}
