// Inbound and stock: packing slips and inbounds with their lifecycles, receiving goods, stock levels and the ledger.
import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { readAll } from '../api/collections.ts';
import { read } from '../api/errors.ts';
import { useApi } from '../api/hooks.ts';
import { ofType } from '../api/jsonapi.ts';
import { refresh } from '../api/refresh.ts';
import { StatusBadge } from '../components/badges.tsx';
import { ClockTerm } from '../components/clocks.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { goodsColumns } from '../components/goods.ts';
import { dateTime } from '../components/format.ts';
import { Page } from '../components/Page.tsx';
import { Empty, Loaded } from '../components/states.tsx';
import { Timeline } from '../components/Timeline.tsx';
import { type Inbound, inboundSteps, type PackingSlipItem, packingSlipSteps } from './lifecycles.ts';
import { ReceiveDialog } from './ReceiveDialog.tsx';
import { StockLevels, StockMutations } from './stock.tsx';

function usePackingSlips() {
  const api = useApi();
  return useQuery({
    queryKey: ['packingSlips'],
    queryFn: () => readAll(api, '/v3/inboundPackingSlips', { include: 'inboundPackingSlipItems' }),
    refetchInterval: refresh.list,
  });
}

function useInbounds() {
  const api = useApi();
  return useQuery({ queryKey: ['inbounds'], queryFn: () => readAll(api, '/v3/inbounds'), refetchInterval: refresh.list });
}

const totals = (items: PackingSlipItem[]) =>
  items.reduce((sum, { attributes }) => ({ expected: sum.expected + attributes.quantity, received: sum.received + attributes.received }), {
    expected: 0,
    received: 0,
  });

function PackingSlips() {
  const packingSlips = usePackingSlips();
  return (
    <Loaded query={packingSlips} what="your packing slips">
      {({ data, included }) =>
        data.length ? (
          <DataTable
            label="Packing slips"
            caption="Your packing slips, newest first"
            rows={data}
            rowKey={(slip) => slip.id}
            columns={[
              {
                header: 'Reference',
                cell: (slip) => <Link to={`/inbound/packing-slips/${slip.id}`}>{slip.attributes.reference}</Link>,
                wrap: true,
              },
              { header: 'Warehouse', cell: (slip) => slip.attributes.expectedIn },
              { header: 'Expected on', cell: (slip) => slip.attributes.expectedOn ?? '—', nowrap: true },
              { header: 'Status', cell: (slip) => <StatusBadge status={slip.attributes.status} /> },
              {
                header: 'Received of expected',
                cell: (slip) => {
                  const { expected, received } = totals(
                    included.filter((item) => item.relationships.inboundPackingSlip.data?.id === slip.id),
                  );
                  return `${received} of ${expected}`;
                },
                numeric: true,
              },
            ]}
          />
        ) : (
          <Empty>
            No packing slips yet. Announce goods with <code>POST /v3/inboundPackingSlips</code>; they arrive on their expected date, or at
            once with <em>Receive goods</em> here.
          </Empty>
        )
      }
    </Loaded>
  );
}

function InboundTable({ inbounds }: { inbounds: Inbound[] }) {
  return (
    <DataTable
      label="Inbounds"
      caption="Inbounds, newest first"
      rows={inbounds}
      rowKey={(inbound) => inbound.id}
      columns={[
        { header: 'Inbound', cell: (inbound) => <Link to={`/inbound/inbounds/${inbound.id}`}>Inbound {inbound.id}</Link>, nowrap: true },
        { header: 'Reference', cell: (inbound) => inbound.attributes.reference, wrap: true },
        { header: 'Warehouse', cell: (inbound) => inbound.attributes.receivedIn },
        { header: 'Status', cell: (inbound) => <StatusBadge status={inbound.attributes.status} /> },
        { header: <ClockTerm clock="sandbox">Received</ClockTerm>, cell: (inbound) => dateTime(inbound.attributes.createdOn) },
      ]}
    />
  );
}

function Inbounds() {
  const inbounds = useInbounds();
  return (
    <Loaded query={inbounds} what="your inbounds">
      {({ data }) => (data.length ? <InboundTable inbounds={data} /> : <Empty>No goods received yet.</Empty>)}
    </Loaded>
  );
}

export function InboundScreen() {
  const [params, setParams] = useSearchParams();
  return (
    <Page title="Inbound goods" lead="Goods you announced (packing slips) and what the warehouse received of them (inbounds).">
      <Tabs.Root value={params.get('tab') ?? 'packing-slips'} onValueChange={(tab) => setParams({ tab }, { replace: true })}>
        <Tabs.List className="tabs-list" aria-label="Inbound goods">
          <Tabs.Trigger value="packing-slips">Packing slips</Tabs.Trigger>
          <Tabs.Trigger value="inbounds">Inbounds</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="packing-slips">
          <PackingSlips />
        </Tabs.Content>
        <Tabs.Content value="inbounds">
          <Inbounds />
        </Tabs.Content>
      </Tabs.Root>
    </Page>
  );
}

export function PackingSlipScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const packingSlip = useQuery({
    queryKey: ['packingSlip', id],
    queryFn: () =>
      read(api.GET('/v3/inboundPackingSlips/{id}', { params: { path: { id }, query: { include: 'inboundPackingSlipItems' } } })),
    refetchInterval: refresh.detail,
  });
  const inbounds = useInbounds();
  const slip = packingSlip.data?.data;
  const receivable = slip?.attributes.status === 'EXPECTED' || slip?.attributes.status === 'IN_PROGRESS';
  return (
    <Page title={`Packing slip ${slip?.attributes.reference ?? id}`} actions={<Link to="/inbound">All inbound goods</Link>}>
      <Loaded query={packingSlip} what="the packing slip">
        {({ data, included }) => {
          const items = ofType(included, 'inboundPackingSlipItem');
          return (
            <>
              <dl className="facts panel">
                <dt>Reference</dt>
                <dd>{data.attributes.reference}</dd>
                <dt>Warehouse</dt>
                <dd>{data.attributes.expectedIn}</dd>
                <dt>Expected on</dt>
                <dd>{data.attributes.expectedOn ?? '—'}</dd>
                <dt>
                  <ClockTerm clock="sandbox">Received</ClockTerm>
                </dt>
                <dd>{dateTime(data.attributes.receivedOn)}</dd>
                <dt>
                  <ClockTerm clock="sandbox">Completed</ClockTerm>
                </dt>
                <dd>{dateTime(data.attributes.completedOn)}</dd>
                <dt>Comments</dt>
                <dd>{data.attributes.comments ?? '—'}</dd>
              </dl>
              <Timeline
                label="Status of the packing slip"
                steps={packingSlipSteps(data)}
                current={data.attributes.status}
                clock="sandbox"
              />
              {receivable && (
                <div className="actions">
                  <ReceiveDialog packingSlip={data} items={items} />
                </div>
              )}
              <h2>Items</h2>
              <DataTable
                label="Packing slip items"
                rows={items}
                rowKey={(item) => item.id}
                columns={[
                  { header: 'SKU', cell: (item) => item.attributes.sku, nowrap: true },
                  { header: 'Expected', cell: (item) => item.attributes.quantity, numeric: true },
                  { header: 'Received', cell: (item) => item.attributes.received, numeric: true },
                ]}
              />
              <h2>Inbounds of this packing slip</h2>
              <Loaded query={inbounds} what="the inbounds">
                {(all) => {
                  const own = all.data.filter((inbound) => inbound.relationships.inboundPackingSlip.data?.id === id);
                  return own.length ? <InboundTable inbounds={own} /> : <Empty>Nothing received yet.</Empty>;
                }}
              </Loaded>
            </>
          );
        }}
      </Loaded>
    </Page>
  );
}

export function InboundDetailScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const inbound = useQuery({
    queryKey: ['inbound', id],
    queryFn: () => read(api.GET('/v3/inbounds/{id}', { params: { path: { id }, query: { include: 'inboundItems' } } })),
    refetchInterval: refresh.detail,
  });
  const packingSlipId = inbound.data?.data.relationships.inboundPackingSlip.data?.id;
  return (
    <Page title={`Inbound ${id}`} actions={packingSlipId && <Link to={`/inbound/packing-slips/${packingSlipId}`}>Its packing slip</Link>}>
      <Loaded query={inbound} what="the inbound">
        {({ data, included }) => (
          <>
            <dl className="facts panel">
              <dt>Reference</dt>
              <dd>{data.attributes.reference}</dd>
              <dt>Warehouse</dt>
              <dd>{data.attributes.receivedIn}</dd>
            </dl>
            <Timeline label="Status of the inbound" steps={inboundSteps(data)} current={data.attributes.status} clock="sandbox" />
            <h2>Items received</h2>
            <DataTable
              label="Inbound items"
              rows={ofType(included, 'inboundItem')}
              rowKey={(item) => item.id}
              columns={[
                ...goodsColumns,
                {
                  header: 'On the packing slip',
                  cell: (item) => (item.relationships.inboundPackingSlipItem.data ? 'yes' : 'no: not announced'),
                },
              ]}
            />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export function StockScreen() {
  return (
    <Page title="Stock" lead="Your stock levels per warehouse, and the latest bookings in the stock ledger.">
      <h2>Stock levels</h2>
      <StockLevels />
      <h2>Recent stock mutations</h2>
      <StockMutations />
    </Page>
  );
}
