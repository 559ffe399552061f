import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../api';

export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorBox({ error, onRetry }: { error: string; onRetry?: () => void }) {
  return (
    <article className="error-box" role="alert">
      <strong>Something went wrong.</strong> {error}
      {onRetry && (
        <>
          {' '}
          <button type="button" className="secondary outline small" onClick={onRetry}>
            Try again
          </button>
        </>
      )}
    </article>
  );
}

export function Notice({ text }: { text: string }) {
  return text ? (
    <p className="notice" role="status">
      {text}
    </p>
  ) : null;
}

export interface Loaded<T> {
  data: T | undefined;
  error: string;
  loading: boolean;
  reload(): void;
}

/** Loads once per change of `key`, with loading and error states a page can show. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  // `key` stands for everything `load` reads: a new closure each render must not reload, and
  // the load that runs is the latest closure (this effect runs before the one below).
  const latestLoad = useRef(load);
  useEffect(() => {
    latestLoad.current = load;
  });
  useEffect(() => {
    let current = true;
    setLoading(true);
    setError('');
    latestLoad.current().then(
      (value) => current && (setData(value), setLoading(false)),
      (err) => current && (setError(messageOf(err)), setLoading(false)),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, loading, reload };
}

/** Shows loading, error or the content of a load. */
export function Show<T>({
  loaded,
  what,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => JSX.Element;
}) {
  if (loaded.error) return <ErrorBox error={loaded.error} onRetry={loaded.reload} />;
  if (loaded.data === undefined) return <Loading what={what} />;
  return children(loaded.data);
}
