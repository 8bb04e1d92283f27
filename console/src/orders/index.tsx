// Orders and shipments: lists, an order with its items, addresses and shipments, and one shipment.
import type { ItemOf } from '@shopapi/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { readAll } from '../api/collections.ts';
import { read, write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { ofType, related } from '../api/jsonapi.ts';
import { refresh } from '../api/refresh.ts';
import { StatusBadge } from '../components/badges.tsx';
import { ClockTerm } from '../components/clocks.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { dateTime } from '../components/format.ts';
import { Outcome } from '../components/Outcome.tsx';
import { Page } from '../components/Page.tsx';
import { Empty, Loaded } from '../components/states.tsx';
import { AddressBlock } from './AddressBlock.tsx';
import { ScenarioPanel } from './ScenarioPanel.tsx';
import { ShipmentCard } from './ShipmentCard.tsx';
import { shipNow } from './ship-now.ts';
import type { Shipment } from './shipments.ts';
import { StockBooked } from './StockBooked.tsx';

type Order = ItemOf<'/v3/orders'>;

const orderIdOf = (shipment: Shipment) => shipment.relationships.order.data?.id;

function useAllShipments() {
  const api = useApi();
  return useQuery({ queryKey: ['shipments'], queryFn: () => readAll(api, '/v3/shipments'), refetchInterval: refresh.list });
}

function ShipmentBadges({ shipments }: { shipments: Shipment[] }) {
  if (!shipments.length) return <span className="muted">none yet</span>;
  return (
    <span className="row">
      {shipments.map((shipment) => (
        <StatusBadge key={shipment.id} status={shipment.attributes.tracking?.stage ?? shipment.attributes.status} />
      ))}
    </span>
  );
}

function OrderTable({ orders, shipments }: { orders: Order[]; shipments: Shipment[] }) {
  return (
    <DataTable
      label="Orders"
      caption="Your orders, newest first"
      rows={orders}
      rowKey={(order) => order.id}
      columns={[
        { header: 'Order', cell: (order) => <Link to={`/orders/${order.id}`}>{order.attributes.externalOrderNumber}</Link>, wrap: true },
        { header: 'Id', cell: (order) => order.id },
        {
          header: <ClockTerm clock="sandbox">Created</ClockTerm>,
          cell: (order) => dateTime(order.attributes.createdOn),
        },
        { header: 'Email', cell: (order) => order.attributes.email, wrap: true },
        { header: 'On hold', cell: (order) => (order.attributes.onHold ? 'on hold' : 'no') },
        {
          header: 'Shipments',
          cell: (order) => <ShipmentBadges shipments={shipments.filter((shipment) => orderIdOf(shipment) === order.id)} />,
        },
      ]}
    />
  );
}

export function OrdersScreen() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const orders = useQuery({ queryKey: ['orders'], queryFn: () => readAll(api, '/v3/orders'), refetchInterval: refresh.list });
  const shipments = useAllShipments();
  const term = search.trim().toLowerCase();
  return (
    <Page title="Orders" lead="Your orders, newest first, with where their shipments are. Open one to follow it to delivery.">
      <div className="filters">
        <div className="field">
          <label htmlFor="order-search">Find an order</label>
          <input
            id="order-search"
            type="search"
            placeholder="Order number or email"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </div>
      <Loaded query={orders} what="your orders">
        {({ data }) => {
          if (!data.length) {
            return (
              <Empty>
                No orders yet. Create one with <code>POST /v3/orders</code> (the <a href="/docs/sandbox">sandbox guide</a> shows how); it
                appears here within seconds.
              </Empty>
            );
          }
          const found = data.filter((order) =>
            [order.attributes.externalOrderNumber, order.attributes.email].some((text) => text.toLowerCase().includes(term)),
          );
          if (!found.length) return <Empty>No order number or email contains “{search}”.</Empty>;
          return <OrderTable orders={found} shipments={shipments.data?.data ?? []} />;
        }}
      </Loaded>
    </Page>
  );
}

function OrderFacts({ order }: { order: Order }) {
  const { attributes } = order;
  return (
    <dl className="facts panel">
      <dt>Order number</dt>
      <dd>{attributes.externalOrderNumber}</dd>
      <dt>Id</dt>
      <dd>{order.id}</dd>
      <dt>
        <ClockTerm clock="sandbox">Created</ClockTerm>
      </dt>
      <dd>{dateTime(attributes.createdOn)}</dd>
      <dt>
        <ClockTerm clock="shop">Ordered</ClockTerm>
      </dt>
      <dd>{attributes.orderedOn ? dateTime(attributes.orderedOn) : 'not sent'}</dd>
      <dt>Email</dt>
      <dd>{attributes.email}</dd>
      <dt>Locale</dt>
      <dd>{attributes.locale}</dd>
      <dt>On hold</dt>
      <dd>{attributes.onHold ? 'yes: the warehouse waits until it is released' : 'no'}</dd>
      <dt>Partial delivery</dt>
      <dd>{attributes.allowPartialDelivery ? 'allowed' : 'not allowed'}</dd>
      <dt>Fulfil from</dt>
      <dd>{attributes.fulfillFrom ?? 'any warehouse'}</dd>
      <dt>Reference</dt>
      <dd>{attributes.reference ?? '—'}</dd>
    </dl>
  );
}

export function OrderScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const order = useQuery({
    queryKey: ['order', id],
    queryFn: () =>
      read(
        api.GET('/v3/orders/{id}', {
          params: { path: { id }, query: { include: 'orderItems,deliveryAddress,billingAddress,pickUpPoint' } },
        }),
      ),
    refetchInterval: refresh.detail,
  });
  const shipments = useQuery({
    queryKey: ['shipments', { orderId: id }],
    queryFn: () => readAll(api, '/v3/shipments', { orderId: id, include: 'shipmentItems' }),
    refetchInterval: refresh.detail,
  });
  const ship = useAction(() => write(api.POST('/sandbox/orders/{id}/ship', { params: { path: { id } } })));
  // Known once both the order and its shipments are read.
  const shippable =
    order.data &&
    shipments.data &&
    shipNow(
      ofType(order.data.included, 'orderItem'),
      related(ofType(order.data.included, 'address'), order.data.data.relationships.deliveryAddress),
      shipments.data.data,
      shipments.data.included,
    );
  return (
    <Page
      title={`Order ${order.data?.data.attributes.externalOrderNumber ?? id}`}
      actions={
        shippable &&
        (shippable.possible ? (
          <button type="button" onClick={() => ship.mutate()} disabled={ship.isPending}>
            Ship now
          </button>
        ) : (
          <p className="muted">{shippable.why}</p>
        ))
      }
    >
      <Outcome
        action={ship}
        what="Shipping the order"
        done={({ data }) => `Shipment ${data.id} is ${data.attributes.status}: it appears below with its tracking.`}
      />
      <Loaded query={order} what="the order">
        {({ data, included }) => {
          const items = ofType(included, 'orderItem');
          const addresses = ofType(included, 'address');
          const pickUpPoint = ofType(included, 'pickUpPoint')[0];
          return (
            <>
              <OrderFacts order={data} />
              <h2>Items</h2>
              <DataTable
                label="Order items"
                rows={items}
                rowKey={(item) => item.id}
                columns={[
                  { header: 'SKU', cell: (item) => item.attributes.sku, nowrap: true },
                  { header: 'Name', cell: (item) => item.attributes.name },
                  { header: 'Quantity', cell: (item) => item.attributes.quantity, numeric: true },
                  {
                    header: 'Price',
                    cell: ({ attributes: item }) => (item.price === null ? '—' : `${item.price.toFixed(2)} ${data.attributes.currency}`),
                    numeric: true,
                  },
                  { header: 'VAT', cell: (item) => `${Math.round(item.attributes.vat * 1000) / 10}%`, numeric: true },
                ]}
              />
              <h2>Addresses</h2>
              <div className="grid">
                <AddressBlock title="Delivery address" address={related(addresses, data.relationships.deliveryAddress)} />
                <AddressBlock title="Billing address" address={related(addresses, data.relationships.billingAddress)} />
                {pickUpPoint && <AddressBlock title={`Pick-up point ${pickUpPoint.attributes.identifier}`} address={pickUpPoint} />}
              </div>
              <ScenarioPanel orderId={id} />
              <h2>Shipments</h2>
              <Loaded query={shipments} what="the order's shipments">
                {(found) =>
                  found.data.length ? (
                    <>
                      {found.data.map((shipment) => (
                        <ShipmentCard
                          key={shipment.id}
                          shipment={shipment}
                          items={found.included}
                          viaPickUpPoint={!!pickUpPoint}
                          level={3}
                        />
                      ))}
                      <h2>Stock booked</h2>
                      <StockBooked shipments={found.data} items={found.included} since={data.attributes.createdOn} />
                    </>
                  ) : (
                    <Empty>
                      No shipment yet. The warehouse makes one when the order is not on hold and its goods are in stock; <em>Ship now</em>{' '}
                      makes one at once.
                    </Empty>
                  )
                }
              </Loaded>
            </>
          );
        }}
      </Loaded>
    </Page>
  );
}

export function ShipmentsScreen() {
  const shipments = useAllShipments();
  return (
    <Page title="Shipments" lead="What the warehouse sent, newest first.">
      <Loaded query={shipments} what="your shipments">
        {({ data }) =>
          data.length ? (
            <DataTable
              label="Shipments"
              caption="Your shipments, newest first"
              rows={data}
              rowKey={(shipment) => shipment.id}
              columns={[
                { header: 'Shipment', cell: (shipment) => <Link to={`/shipments/${shipment.id}`}>Shipment {shipment.id}</Link> },
                {
                  header: 'Order',
                  cell: (shipment) => orderIdOf(shipment) && <Link to={`/orders/${orderIdOf(shipment)}`}>Order {orderIdOf(shipment)}</Link>,
                },
                { header: 'Status', cell: (shipment) => <StatusBadge status={shipment.attributes.status} /> },
                { header: 'Tracking', cell: (shipment) => shipment.attributes.tracking?.stage ?? '—' },
                { header: 'Warehouse', cell: (shipment) => shipment.attributes.warehouseCode },
                {
                  header: <ClockTerm clock="sandbox">Shipped</ClockTerm>,
                  cell: (shipment) => dateTime(shipment.attributes.shippedOn),
                },
              ]}
            />
          ) : (
            <Empty>No shipments yet: they appear when the warehouse starts on an order.</Empty>
          )
        }
      </Loaded>
    </Page>
  );
}

export function ShipmentScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const shipment = useQuery({
    queryKey: ['shipment', id],
    queryFn: () => read(api.GET('/v3/shipments/{id}', { params: { path: { id }, query: { include: 'shipmentItems' } } })),
    refetchInterval: refresh.detail,
  });
  const orderId = shipment.data?.data.relationships.order.data?.id;
  // The order says whether the parcel goes to a pick-up point (a tracking stage of its own); it does not change.
  const order = useQuery({
    queryKey: ['order', orderId, 'pickUpPoint'],
    queryFn: () => read(api.GET('/v3/orders/{id}', { params: { path: { id: orderId ?? 0 }, query: { include: 'pickUpPoint' } } })),
    enabled: orderId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Page
      title={`Shipment ${id}`}
      actions={order.data && <Link to={`/orders/${order.data.data.id}`}>Order {order.data.data.attributes.externalOrderNumber}</Link>}
    >
      <Loaded query={shipment} what="the shipment">
        {({ data, included }) => (
          <>
            <ShipmentCard
              shipment={data}
              items={included ?? []}
              viaPickUpPoint={!!order.data?.data.relationships.pickUpPoint.data}
              level={2}
            />
            <h2>Stock booked</h2>
            <StockBooked shipments={[data]} items={included ?? []} since={data.attributes.readyToPickOn ?? new Date().toISOString()} />
          </>
        )}
      </Loaded>
    </Page>
  );
}
