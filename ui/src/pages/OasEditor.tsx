import { useEffect, useState } from 'react';
import { ApiError, messageOf, requestText } from '../api';
import { Field } from '../components/form';
import { ErrorBox, Loading, Notice } from '../components/status';
import { navigate } from '../router';
import { useSession } from '../session';
import { StreamStatsTable } from './StreamStats';

export type DocumentKind = 'oas' | 'streams';

const STREAMS_TYPE = 'application/vnd.gw.streams.oas';

/** What a new document starts from: the smallest one the server accepts, to edit. */
function starter(kind: DocumentKind): string {
  const doc: Record<string, unknown> = {
    openapi: '3.0.3',
    info: { title: 'My API', version: '1.0.0' },
    paths: {},
    'x-gw-api-gateway': {
      info: { name: 'My API', state: { active: true } },
      server: { listenPath: { value: '/my-api/', strip: true } },
      upstream: { url: 'http://upstream.example:8080' },
    },
  };
  if (kind === 'streams')
    doc['x-gw-streaming'] = {
      streams: { main: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } } },
    };
  return JSON.stringify(doc, null, 2);
}

/** JSON when it starts like JSON; anything else goes as YAML (the server reads both). */
function contentTypeOf(kind: DocumentKind, text: string): string {
  if (kind === 'streams') return STREAMS_TYPE;
  return /^\s*[{[]/.test(text) ? 'application/json' : 'application/x-yaml';
}

/**
 * An API in OAS form (or a streams API, an OAS document with `x-gw-streaming`) edited as text;
 * the server validates it, and its complaints (JSON pointers) are listed under the editor.
 */
export function OasEditor({ kind, id }: { kind: DocumentKind; id?: string }) {
  const { can } = useSession();
  const readOnly = !can('apis', 'write');
  const [format, setFormat] = useState<'json' | 'yaml'>('json');
  const [text, setText] = useState(id ? '' : starter(kind));
  const [loading, setLoading] = useState(Boolean(id));
  const [loadError, setLoadError] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [notice, setNotice] = useState('');
  const [saving, setSaving] = useState(false);
  const base = `/apis/${kind}`;

  useEffect(() => {
    if (!id) return;
    setLoading(true);
    requestText('GET', `${base}/${encodeURIComponent(id)}${format === 'yaml' ? '?format=yaml' : ''}`)
      .then((body) => (format === 'json' ? JSON.stringify(JSON.parse(body), null, 2) : body))
      .then(
        (body) => {
          setText(body);
          setLoading(false);
        },
        (err) => {
          setLoadError(messageOf(err));
          setLoading(false);
        },
      );
  }, [id, format, base]);

  const save = async () => {
    setSaving(true);
    setProblems([]);
    setNotice('');
    try {
      const answer = await requestText(
        id ? 'PUT' : 'POST',
        id ? `${base}/${encodeURIComponent(id)}` : base,
        text,
        contentTypeOf(kind, text),
      );
      if (id) setNotice('Saved.');
      else navigate(`/apis/${kind}/${String((JSON.parse(answer) as { Meta: string }).Meta)}`);
    } catch (err) {
      // The pointers are the Errors; the Message repeats the first, so it only leads when there are none.
      setProblems(err instanceof ApiError && err.errors.length > 0 ? err.errors : [messageOf(err)]);
    } finally {
      setSaving(false);
    }
  };

  const title = kind === 'streams' ? 'Streams API' : 'API (OpenAPI)';
  if (loadError) return <ErrorBox error={loadError} />;
  return (
    <section>
      <div className="page-head">
        <h1>{id ? `Edit ${title}` : `New ${title}`}</h1>
        <a href="#/apis">Back to APIs</a>
      </div>
      {id && (
        <fieldset role="group" aria-label="Format">
          <button type="button" className={format === 'json' ? '' : 'outline'} onClick={() => setFormat('json')}>
            JSON
          </button>
          <button type="button" className={format === 'yaml' ? '' : 'outline'} onClick={() => setFormat('yaml')}>
            YAML
          </button>
        </fieldset>
      )}
      {loading ? (
        <Loading what="the document" />
      ) : (
        <Field
          label={
            kind === 'streams' ? 'Streams document (OAS with x-gw-streaming, JSON)' : 'OpenAPI document (JSON or YAML)'
          }
          hint="Checked by the server when you save."
          error={problems.length > 0 ? 'The server refused the document; see below.' : undefined}
        >
          {(a) => (
            <textarea
              {...a}
              name="document"
              className="code"
              rows={26}
              spellCheck={false}
              value={text}
              readOnly={readOnly}
              onChange={(e: { target: HTMLTextAreaElement }) => setText(e.target.value)}
            />
          )}
        </Field>
      )}
      {problems.length > 0 && (
        <ul className="field-error" role="alert" data-testid="document-errors">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <Notice text={notice} />
      {!readOnly && (
        <button type="button" onClick={() => void save()} aria-busy={saving} disabled={saving || loading}>
          {id ? 'Save' : 'Create'}
        </button>
      )}
      {kind === 'streams' && id && <StreamStatsTable id={id} />}
    </section>
  );
}
