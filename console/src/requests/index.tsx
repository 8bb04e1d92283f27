// Requests: the client's request log, newest first and live, with filters, and one entry in full.
import * as Tabs from '@radix-ui/react-tabs';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { nextCursor } from '../api/collections.ts';
import { requestLogPageSize } from '../api/contract.ts';
import { read } from '../api/errors.ts';
import { useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { HttpStatus } from '../components/badges.tsx';
import { ClockTerm } from '../components/clocks.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { bytes, dateTime, prettyBody, timeOfDay } from '../components/format.ts';
import { Page } from '../components/Page.tsx';
import { Code } from '../components/regions.tsx';
import { Empty, Loaded } from '../components/states.tsx';
import { curlOf, type LoggedRequest } from './curl.ts';

const statusClasses = ['2xx', '3xx', '4xx', '5xx'];
const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const filters = ['status', 'method', 'path', 'requestId'] as const;
const requestIdPattern = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

function FilterForm() {
  const [params, setParams] = useSearchParams();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setParams(filters.flatMap((name): [string, string][] => (form.get(name) ? [[name, String(form.get(name)).trim()]] : [])));
  };
  const submitOnChange = (event: { currentTarget: HTMLSelectElement }) => event.currentTarget.form?.requestSubmit();
  return (
    // Keyed by the filters, so "Clear" (or the browser's back button) shows the fields as the URL has them.
    <search>
      <form key={params.toString()} aria-label="Filter requests" className="filters" onSubmit={apply}>
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" name="status" defaultValue={params.get('status') ?? ''} onChange={submitOnChange}>
            <option value="">Any</option>
            {statusClasses.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-method">Method</label>
          <select id="filter-method" name="method" defaultValue={params.get('method') ?? ''} onChange={submitOnChange}>
            <option value="">Any</option>
            {methods.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-path">Path starts with</label>
          <input id="filter-path" name="path" placeholder="/v3/orders" pattern="/.*" defaultValue={params.get('path') ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="filter-request-id">Request-Id</label>
          <input
            id="filter-request-id"
            name="requestId"
            pattern={requestIdPattern}
            size={38}
            defaultValue={params.get('requestId') ?? ''}
          />
        </div>
        <button type="submit">Filter</button>
        {params.size > 0 && (
          <button type="button" className="secondary" onClick={() => setParams([])}>
            Clear filters
          </button>
        )}
      </form>
    </search>
  );
}

function RequestTable({ entries }: { entries: { id: string; attributes: LoggedRequest }[] }) {
  return (
    <DataTable
      label="Requests"
      caption="Your requests, newest first"
      rows={entries}
      rowKey={(entry) => entry.id}
      columns={[
        {
          header: <ClockTerm clock="real">Received</ClockTerm>,
          cell: ({ attributes: entry }) => <time dateTime={entry.receivedAt}>{timeOfDay(entry.receivedAt)}</time>,
          nowrap: true,
        },
        { header: 'Status', cell: (entry) => <HttpStatus status={entry.attributes.status} /> },
        { header: 'Method', cell: (entry) => entry.attributes.method },
        { header: 'Path and query', cell: ({ id, attributes: entry }) => <Link to={`/requests/${id}`}>{entry.url}</Link>, wrap: true },
        { header: 'Duration', cell: (entry) => `${entry.attributes.durationMs.toFixed(1)} ms`, numeric: true, nowrap: true },
        { header: 'Warnings', cell: (entry) => entry.attributes.warnings.length || '—', numeric: true },
      ]}
    />
  );
}

export function RequestsScreen() {
  const api = useApi();
  const [params] = useSearchParams();
  const query = {
    'page[size]': requestLogPageSize,
    'filter[status]': params.get('status') ?? undefined,
    'filter[method]': params.get('method') ?? undefined,
    'filter[path]': params.get('path') ?? undefined,
    'filter[requestId]': params.get('requestId') ?? undefined,
  };
  const log = useInfiniteQuery({
    queryKey: ['requests', query],
    queryFn: ({ pageParam }) => read(api.GET('/sandbox/requests', { params: { query: { ...query, 'page[cursor]': pageParam } } })),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => nextCursor(page.links),
    refetchInterval: refresh.requests,
  });
  return (
    <Page
      title="Requests"
      lead="Every call made with your token: v3, v2, the sandbox controls and your sign-ins, newest first. New calls appear within seconds."
    >
      <FilterForm />
      <Loaded query={log} what="your request log">
        {({ pages }) => {
          const entries = pages.flatMap((page) => page.data);
          if (!entries.length) {
            return (
              <Empty>
                {params.size
                  ? 'No request matches these filters.'
                  : 'No requests yet. Calls you make with your token appear here, with their bodies and warnings.'}
              </Empty>
            );
          }
          return (
            <>
              <RequestTable entries={entries} />
              {log.hasNextPage && (
                <button type="button" className="secondary" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                  {log.isFetchingNextPage ? 'Loading…' : 'Show older requests'}
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </Page>
  );
}

function Body({ label, message }: { label: string; message: LoggedRequest['request'] }) {
  return (
    <>
      <p className="muted">
        {message.contentType ?? 'No content type'} · {bytes(message.bytes)}
        {message.truncated && ' · the log kept only the start of it'}
      </p>
      {message.body === null ? (
        <p>{message.bytes ? 'A binary body (a file or a multipart upload): the log does not keep it.' : 'No body.'}</p>
      ) : (
        <Code label={label}>{prettyBody(message.body)}</Code>
      )}
    </>
  );
}

function Warnings({ warnings }: { warnings: LoggedRequest['warnings'] }) {
  if (!warnings.length) return <p>None: the sandbox read the request as sent.</p>;
  return (
    <ul>
      {warnings.map((warning) => (
        <li key={`${warning.kind}${warning.source}${warning.detail}`}>
          <strong>{warning.kind}</strong>
          {warning.source && (
            <>
              {' '}
              at <code>{warning.source}</code>
            </>
          )}
          : {warning.detail}
        </li>
      ))}
    </ul>
  );
}

/** The JSON:API errors of a failed answer, when its body kept them. */
function answerErrors(entry: LoggedRequest): { code?: string; title?: string; detail?: string; source?: Record<string, string> }[] {
  if (entry.status < 400 || !entry.response.body) return [];
  try {
    const errors = (JSON.parse(entry.response.body) as { errors?: unknown }).errors;
    return Array.isArray(errors) ? errors : [];
  } catch {
    return [];
  }
}

function Entry({ id, entry }: { id: string; entry: LoggedRequest }) {
  const curl = curlOf(entry, window.location.origin);
  const errors = answerErrors(entry);
  return (
    <>
      <dl className="facts panel">
        <dt>Request-Id</dt>
        <dd>
          <code>{id}</code>
        </dd>
        <dt>
          <ClockTerm clock="real">Received</ClockTerm>
        </dt>
        <dd>{dateTime(entry.receivedAt)}</dd>
        <dt>Call</dt>
        <dd>
          <code>
            {entry.method} {entry.url}
          </code>
        </dd>
        <dt>Operation</dt>
        <dd>
          {entry.operationId ?? '—'} ({entry.api})
        </dd>
        <dt>Status</dt>
        <dd>
          <HttpStatus status={entry.status} />
        </dd>
        <dt>Duration</dt>
        <dd>{entry.durationMs.toFixed(1)} ms</dd>
      </dl>
      {errors.length > 0 && (
        <section aria-labelledby="answer-errors">
          <h2 id="answer-errors">Errors in the answer</h2>
          <ul>
            {errors.map((error) => (
              <li key={`${error.code}${error.detail}${JSON.stringify(error.source)}`}>
                <strong>{error.title}</strong>
                {error.code && ` (${error.code})`}: {error.detail}
                {error.source && (
                  <>
                    {' '}
                    at <code>{Object.values(error.source).join(', ')}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="warnings">
        <h2 id="warnings">Warnings</h2>
        <Warnings warnings={entry.warnings} />
      </section>
      <Tabs.Root defaultValue="request">
        <Tabs.List className="tabs-list" aria-label="Request and answer">
          <Tabs.Trigger value="request">Request</Tabs.Trigger>
          <Tabs.Trigger value="answer">Answer</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="request">
          <Body label="Request body" message={entry.request} />
        </Tabs.Content>
        <Tabs.Content value="answer">
          <Body label="Answer body" message={entry.response} />
        </Tabs.Content>
      </Tabs.Root>
      <section aria-labelledby="curl">
        <h2 id="curl">As curl</h2>
        <p className="muted">
          Your token is left out: set <code>TOKEN</code> to one of yours first.
        </p>
        <CopyButton text={curl} label="Copy as curl" />
        <Code label="The request as a curl command">{curl}</Code>
      </section>
    </>
  );
}

export function RequestScreen() {
  const api = useApi();
  const id = useParams().id ?? '';
  // An entry never changes once logged.
  const entry = useQuery({
    queryKey: ['request', id],
    queryFn: () => read(api.GET('/sandbox/requests/{id}', { params: { path: { id } } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Page title={`Request ${id.slice(0, 8)}`} actions={<Link to="/requests">All requests</Link>}>
      <Loaded query={entry} what="the request">
        {({ data }) => <Entry id={data.id} entry={data.attributes} />}
      </Loaded>
    </Page>
  );
}
