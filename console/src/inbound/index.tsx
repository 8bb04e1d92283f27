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
import { dateTime } from '../components/format.ts';
import { Page } from '../components/Page.tsx';
import { TableRegion } from '../components/regions.tsx';
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
          <TableRegion label="Packing slips">
            <table>
              <caption className="visually-hidden">Your packing slips, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Reference</th>
                  <th scope="col">Warehouse</th>
                  <th scope="col">Expected on</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="number">
                    Received of expected
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((slip) => {
                  const { expected, received } = totals(
                    included.filter((item) => item.relationships.inboundPackingSlip.data?.id === slip.id),
                  );
                  return (
                    <tr key={slip.id}>
                      <td>
                        <Link to={`/inbound/packing-slips/${slip.id}`}>{slip.attributes.reference}</Link>
                      </td>
                      <td>{slip.attributes.expectedIn}</td>
                      <td>{slip.attributes.expectedOn ?? '—'}</td>
                      <td>
                        <StatusBadge status={slip.attributes.status} />
                      </td>
                      <td className="number">
                        {received} of {expected}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
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
    <TableRegion label="Inbounds">
      <table>
        <caption className="visually-hidden">Inbounds, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Inbound</th>
            <th scope="col">Reference</th>
            <th scope="col">Warehouse</th>
            <th scope="col">Status</th>
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody>
          {inbounds.map((inbound) => (
            <tr key={inbound.id}>
              <td>
                <Link to={`/inbound/inbounds/${inbound.id}`}>Inbound {inbound.id}</Link>
              </td>
              <td>{inbound.attributes.reference}</td>
              <td>{inbound.attributes.receivedIn}</td>
              <td>
                <StatusBadge status={inbound.attributes.status} />
              </td>
              <td>{dateTime(inbound.attributes.createdOn)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
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
                <dt>Received</dt>
                <dd>{dateTime(data.attributes.receivedOn)}</dd>
                <dt>Completed</dt>
                <dd>{dateTime(data.attributes.completedOn)}</dd>
                <dt>Comments</dt>
                <dd>{data.attributes.comments ?? '—'}</dd>
              </dl>
              <Timeline label="Status of the packing slip" steps={packingSlipSteps(data)} current={data.attributes.status} />
              <div className="actions">{receivable && <ReceiveDialog packingSlip={data} items={items} />}</div>
              <h2>Items</h2>
              <TableRegion label="Packing slip items">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">SKU</th>
                      <th scope="col" className="number">
                        Expected
                      </th>
                      <th scope="col" className="number">
                        Received
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map(({ id: itemId, attributes: item }) => (
                      <tr key={itemId}>
                        <td>{item.sku}</td>
                        <td className="number">{item.quantity}</td>
                        <td className="number">{item.received}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
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
            <Timeline label="Status of the inbound" steps={inboundSteps(data)} current={data.attributes.status} />
            <h2>Items received</h2>
            <TableRegion label="Inbound items">
              <table>
                <thead>
                  <tr>
                    <th scope="col">SKU</th>
                    <th scope="col" className="number">
                      Quantity
                    </th>
                    <th scope="col">Lot</th>
                    <th scope="col">Expires</th>
                    <th scope="col">On the packing slip</th>
                  </tr>
                </thead>
                <tbody>
                  {ofType(included, 'inboundItem').map((item) => (
                    <tr key={item.id}>
                      <td>{item.attributes.sku}</td>
                      <td className="number">{item.attributes.quantity}</td>
                      <td>{item.attributes.lotNumber ?? '—'}</td>
                      <td>{item.attributes.expirationDate ?? '—'}</td>
                      <td>{item.relationships.inboundPackingSlipItem.data ? 'yes' : 'no: not announced'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
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
