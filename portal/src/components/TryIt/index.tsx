// A small client for the sandbox that serves this portal: it sends one operation of the
// reference to the same origin, so the try-it calls need no CORS and no remote host.
import {useMemo, useState, type FormEvent, type ReactNode} from 'react';
import styles from './styles.module.css';

interface Operation {
  summary?: string;
  requestBody?: {content: Record<string, {example?: unknown}>};
}

export type OpenApiPaths = Record<string, Record<string, Operation>>;

interface Choice {
  key: string;
  method: string;
  path: string;
  summary: string;
  mediaType?: string;
  example?: unknown;
}

const sendableMediaTypes = ['application/vnd.api+json', 'application/json', 'application/x-www-form-urlencoded'];

function choicesOf(paths: OpenApiPaths): Choice[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .flatMap(([method, operation]) => {
        const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
        if (mediaType && !sendableMediaTypes.includes(mediaType)) return [];
        return [{key: `${method} ${path}`, method: method.toUpperCase(), path, summary: operation.summary ?? '', mediaType, example: content?.example}];
      }),
  );
}

function bodyText(choice: Choice): string {
  if (choice.example === undefined) return '';
  if (choice.mediaType === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(choice.example as Record<string, string>).toString();
  }
  return JSON.stringify(choice.example, null, 2);
}

interface Result {
  status: string;
  body: string;
}

async function send(choice: Choice, path: string, token: string, body: string): Promise<Result> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (path.startsWith('/v3/')) headers.Accept = 'application/vnd.api+json';
  if (choice.mediaType && body) headers['Content-Type'] = choice.mediaType;
  try {
    const response = await fetch(path, {method: choice.method, headers, body: body || undefined});
    const text = await response.text();
    let pretty = text;
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: show the body as it came.
    }
    return {status: `${response.status} ${response.statusText}`, body: pretty};
  } catch (error) {
    return {status: 'No answer', body: `${(error as Error).message}. Is the sandbox running (npm start) and serving this page?`};
  }
}

export default function TryIt({paths}: {paths: OpenApiPaths}): ReactNode {
  const choices = useMemo(() => choicesOf(paths), [paths]);
  const [choice, setChoice] = useState(choices[0]);
  const [path, setPath] = useState(choice?.path ?? '');
  const [body, setBody] = useState(choice ? bodyText(choice) : '');
  const [token, setToken] = useState('');
  const [result, setResult] = useState<Result>();
  const [busy, setBusy] = useState(false);

  if (!choice) return null;

  function pick(key: string) {
    const next = choices.find((candidate) => candidate.key === key) ?? choices[0];
    setChoice(next);
    setPath(next.path);
    setBody(bodyText(next));
    setResult(undefined);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const answer = await send(choice, path, token.trim(), body);
    setResult(answer);
    setBusy(false);
    if (choice.path === '/token' && answer.status.startsWith('200')) {
      setToken((JSON.parse(answer.body) as {access_token: string}).access_token);
    }
  }

  return (
    <details className={styles.panel}>
      <summary>Try it against your running sandbox</summary>
      <form className={styles.form} onSubmit={submit}>
        <p className={styles.hint}>
          Requests go to the server that serves this page (start it with <code>npm start</code>). Send <code>POST /token</code> first: its
          access token fills the token field. File uploads are not supported here; use the curl sample.
        </p>
        <label>
          Operation
          <select value={choice.key} onChange={(event) => pick(event.target.value)}>
            {choices.map((candidate) => (
              <option key={candidate.key} value={candidate.key}>
                {candidate.method} {candidate.path} {candidate.summary && `· ${candidate.summary}`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Path and query (replace the placeholders in braces)
          <input value={path} onChange={(event) => setPath(event.target.value)} spellCheck={false} />
        </label>
        <label>
          Access token
          <input type="password" value={token} onChange={(event) => setToken(event.target.value)} autoComplete="off" />
        </label>
        {choice.mediaType && (
          <label>
            Body ({choice.mediaType})
            <textarea value={body} onChange={(event) => setBody(event.target.value)} rows={10} spellCheck={false} />
          </label>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Sending…' : `Send ${choice.method}`}
        </button>
        {result && (
          <output className={styles.result}>
            <strong>{result.status}</strong>
            <pre>{result.body}</pre>
          </output>
        )}
      </form>
    </details>
  );
}
