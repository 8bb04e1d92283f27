// Webhooks: the client's subscriptions, switching them on and off, and each one's delivery log with redelivery.
import type { ItemOf, ShopApiClient } from '@shopapi/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { nextCursor, readAll } from '../api/collections.ts';
import { read, write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { HttpStatus, StatusBadge } from '../components/badges.tsx';
import { ClockTerm } from '../components/clocks.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { dateTime, prettyBody } from '../components/format.ts';
import { Outcome } from '../components/Outcome.tsx';
import { Page } from '../components/Page.tsx';
import { Code } from '../components/regions.tsx';
import { Empty, ErrorState, Loaded } from '../components/states.tsx';
import { CreateWebhookDialog } from './CreateWebhookDialog.tsx';

type Webhook = ItemOf<'/v3/webhooks'>;
type Delivery = ItemOf<'/sandbox/webhooks/{id}/deliveries'>;

/**
 * Every delivery of a webhook, newest first. Paged here rather than with the client's `pages`, which follows cursors of
 * collections without path parameters only.
 */
async function readDeliveries(api: ShopApiClient, id: number): Promise<Delivery[]> {
  const deliveries: Delivery[] = [];
  let cursor: number | undefined;
  do {
    const page = await read(api.GET('/sandbox/webhooks/{id}/deliveries', { params: { path: { id }, query: { 'page[cursor]': cursor } } }));
    deliveries.push(...page.data);
    cursor = nextCursor(page.links);
  } while (cursor !== undefined);
  return deliveries.reverse();
}

const setActive = (api: ShopApiClient, webhook: Webhook, isActive: boolean) =>
  write(
    api.PUT('/v3/webhooks/{id}', {
      params: { path: { id: webhook.id } },
      body: { data: { type: 'webhook', id: webhook.id, attributes: { isActive } } },
    }),
  );

function ActiveSwitch({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const toggle = useAction(() => setActive(api, webhook, !webhook.attributes.isActive));
  return (
    <>
      <button type="button" className="secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
        {webhook.attributes.isActive ? 'Deactivate' : 'Activate'}
        <span className="visually-hidden"> webhook {webhook.id}</span>
      </button>
      {toggle.isError && <ErrorState error={toggle.error} action="Switching the webhook failed" />}
    </>
  );
}

export function WebhooksScreen() {
  const api = useApi();
  const webhooks = useQuery({ queryKey: ['webhooks'], queryFn: () => readAll(api, '/v3/webhooks'), refetchInterval: refresh.list });
  return (
    <Page
      title="Webhooks"
      lead="Where the sandbox sends your shipment and inbound events. Open one to see every delivery and its attempts."
      actions={<CreateWebhookDialog />}
    >
      <Loaded query={webhooks} what="your webhooks">
        {({ data }) =>
          data.length ? (
            <DataTable
              label="Webhooks"
              rows={data}
              rowKey={(webhook) => webhook.id}
              columns={[
                { header: 'Webhook', cell: (webhook) => <Link to={`/webhooks/${webhook.id}`}>Deliveries of webhook {webhook.id}</Link> },
                { header: 'Event', cell: (webhook) => webhook.attributes.event },
                { header: 'Target URL', cell: (webhook) => webhook.attributes.targetUrl, wrap: true },
                { header: 'State', cell: (webhook) => <StatusBadge status={webhook.attributes.isActive ? 'ACTIVE' : 'INACTIVE'} /> },
                { header: 'Switch', cell: (webhook) => <ActiveSwitch webhook={webhook} />, hiddenHeader: true },
              ]}
            />
          ) : (
            <Empty>No webhooks yet. Register one to receive shipment or inbound events on your own URL.</Empty>
          )
        }
      </Loaded>
    </Page>
  );
}

const entityPaths: Record<string, string> = { shipment: '/shipments', inbound: '/inbound/inbounds' };

function DeliveryCard({ webhookId, delivery }: { webhookId: number; delivery: Delivery }) {
  const api = useApi();
  const { attributes: sent } = delivery;
  const redeliver = useAction(() =>
    write(
      api.POST('/sandbox/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id: webhookId, deliveryId: delivery.id } },
      }),
    ),
  );
  const entityPath = entityPaths[sent.entity];
  return (
    <article className="panel delivery" aria-labelledby={`delivery-${delivery.id}`}>
      <h3 id={`delivery-${delivery.id}`} className="row">
        {sent.event} <StatusBadge status={sent.status} />
      </h3>
      <dl className="facts">
        <dt>About</dt>
        <dd>
          {entityPath ? (
            <Link to={`${entityPath}/${sent.entityId}`}>
              {sent.entity} {sent.entityId}
            </Link>
          ) : (
            `${sent.entity} ${sent.entityId}`
          )}
        </dd>
        <dt>
          <ClockTerm clock="sandbox">Happened</ClockTerm>
        </dt>
        <dd>{dateTime(sent.occurredOn)}</dd>
        <dt>Signed with</dt>
        <dd>
          <code>webhook-id: {sent.eventId}</code> on every attempt; each attempt's <code>webhook-timestamp</code> and{' '}
          <code>webhook-signature</code> are in its row below
        </dd>
        {sent.nextAttemptOn && (
          <>
            <dt>
              <ClockTerm clock="real">Next attempt</ClockTerm>
            </dt>
            <dd>{dateTime(sent.nextAttemptOn)}</dd>
          </>
        )}
      </dl>
      <h4 className="row">
        Payload <CopyButton text={sent.payload} label="Copy the raw body" />
      </h4>
      {/* The body as sent is what a signature covers: shown indented, copied as is. */}
      <Code label={`Payload of delivery ${delivery.id}`}>{prettyBody(sent.payload)}</Code>
      <h4>Attempts, oldest first</h4>
      {sent.log.length ? (
        <DataTable
          label={`Attempts of delivery ${delivery.id}`}
          rows={sent.log}
          rowKey={(attempt) => attempt.attemptedOn}
          columns={[
            { header: <ClockTerm clock="real">Attempted</ClockTerm>, cell: (attempt) => dateTime(attempt.attemptedOn) },
            {
              header: 'Answer',
              cell: (attempt) => (attempt.statusCode === null ? 'no answer' : <HttpStatus status={attempt.statusCode} />),
            },
            { header: 'Duration', cell: (attempt) => `${attempt.durationMs} ms`, numeric: true, nowrap: true },
            { header: 'Error', cell: (attempt) => attempt.error ?? '—', wrap: true },
            {
              header: 'Headers sent',
              cell: (attempt) =>
                attempt.headers ? (
                  <details>
                    <summary>Show</summary>
                    {Object.entries(attempt.headers).map(([name, value]) => (
                      <div key={name}>
                        <span className="muted">{name}</span> <code>{value}</code>
                      </div>
                    ))}
                  </details>
                ) : (
                  'not kept'
                ),
              wrap: true,
            },
          ]}
        />
      ) : (
        <p>Not attempted yet.</p>
      )}
      <button type="button" className="secondary" onClick={() => redeliver.mutate()} disabled={redeliver.isPending}>
        Redeliver
        <span className="visually-hidden"> {sent.event}</span>
      </button>
      <Outcome
        action={redeliver}
        what="Redelivering"
        done={({ data }) => `Queued again as delivery ${data.id}, with the same webhook-id.`}
      />
    </article>
  );
}

export function WebhookScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const webhook = useQuery({
    queryKey: ['webhook', id],
    queryFn: () => read(api.GET('/v3/webhooks/{id}', { params: { path: { id } } })),
    refetchInterval: refresh.list,
  });
  const deliveries = useQuery({
    queryKey: ['deliveries', id],
    queryFn: () => readDeliveries(api, id),
    refetchInterval: refresh.detail,
  });
  return (
    <Page title={`Webhook ${id}`} actions={<Link to="/webhooks">All webhooks</Link>}>
      <Loaded query={webhook} what="the webhook">
        {({ data }) => (
          <div className="panel row">
            <span>
              {data.attributes.event} → <code>{data.attributes.targetUrl}</code>
            </span>
            <StatusBadge status={data.attributes.isActive ? 'ACTIVE' : 'INACTIVE'} />
            <ActiveSwitch webhook={data} />
          </div>
        )}
      </Loaded>
      <h2>Deliveries, newest first</h2>
      <Loaded query={deliveries} what="the deliveries">
        {(data) =>
          data.length ? (
            data.map((delivery) => <DeliveryCard key={delivery.id} webhookId={id} delivery={delivery} />)
          ) : (
            <Empty>Nothing sent yet: deliveries appear when the webhook's event happens.</Empty>
          )
        }
      </Loaded>
    </Page>
  );
}
