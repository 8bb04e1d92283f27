// Loading, failure and empty states, the same on every screen.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="muted">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="notice">{children}</div>;
}

/** A failed call: what the sandbox said (JSON:API title, code, detail, where) and the Request-Id to look it up by. */
export function ErrorState({ error, action }: { error: unknown; action: string }) {
  if (!(error instanceof ApiError)) {
    return (
      <div role="alert" className="notice error">
        <p>
          <strong>{action}:</strong> the sandbox did not answer ({error instanceof Error ? error.message : String(error)}). Is it still
          running?
        </p>
      </div>
    );
  }
  return (
    <div role="alert" className="notice error">
      <p>
        <strong>{action}:</strong> the sandbox answered {error.status}.
      </p>
      <ul>
        {error.problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id; their order is the answer's.
          <li key={index}>
            <strong>{problem.title}</strong>
            {problem.code && ` (${problem.code})`}
            {problem.detail && `: ${problem.detail}`}
            {(problem.source?.pointer ?? problem.source?.parameter) && (
              <>
                {' '}
                at <code>{problem.source?.pointer ?? problem.source?.parameter}</code>
              </>
            )}
          </li>
        ))}
      </ul>
      {error.requestId && (
        <p>
          Request-Id <code>{error.requestId}</code>
          {error.logged && (
            <>
              {' '}
              · <Link to={`/requests/${error.requestId}`}>open it in the request log</Link>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** Renders a query's data, or its loading or error state; a failed refresh keeps the last data on screen under the error. */
export function Loaded<T>({ query, what, children }: { query: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading what={what} />;
  const error = query.isError ? <ErrorState error={query.error} action={`Reading ${what} failed`} /> : null;
  if (query.data === undefined) return error;
  return (
    <>
      {error}
      {children(query.data)}
    </>
  );
}
