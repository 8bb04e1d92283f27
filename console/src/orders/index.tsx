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
import { dateTime } from '../components/format.ts';
import { Outcome } from '../components/Outcome.tsx';
import { Page } from '../components/Page.tsx';
import { TableRegion } from '../components/regions.tsx';
import { Empty, Loaded } from '../components/states.tsx';
import { AddressBlock } from './AddressBlock.tsx';
import { ShipmentCard } from './ShipmentCard.tsx';
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
    <TableRegion label="Orders">
      <table>
        <caption className="visually-hidden">Your orders, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Id</th>
            <th scope="col">Created</th>
            <th scope="col">Email</th>
            <th scope="col">On hold</th>
            <th scope="col">Shipments</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id}>
              <td>
                <Link to={`/orders/${order.id}`}>{order.attributes.externalOrderNumber}</Link>
              </td>
              <td>{order.id}</td>
              <td>{dateTime(order.attributes.createdOn)}</td>
              <td className="wrap">{order.attributes.email}</td>
              <td>{order.attributes.onHold ? 'on hold' : 'no'}</td>
              <td>
                <ShipmentBadges shipments={shipments.filter((shipment) => orderIdOf(shipment) === order.id)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
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
                No orders yet. Create one with <code>POST /v3/orders</code> (the <a href="/docs/index-banner-1">sandbox guide</a> shows
                how); it appears here within seconds.
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
      <dt>Created</dt>
      <dd>{dateTime(attributes.createdOn)}</dd>
      <dt>Ordered</dt>
      <dd>{dateTime(attributes.orderedOn)}</dd>
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
  return (
    <Page
      title={`Order ${order.data?.data.attributes.externalOrderNumber ?? id}`}
      actions={
        <button type="button" onClick={() => ship.mutate()} disabled={ship.isPending}>
          Ship now
        </button>
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
              <TableRegion label="Order items">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">SKU</th>
                      <th scope="col">Name</th>
                      <th scope="col" className="number">
                        Quantity
                      </th>
                      <th scope="col" className="number">
                        Price
                      </th>
                      <th scope="col" className="number">
                        VAT
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map(({ id: itemId, attributes: item }) => (
                      <tr key={itemId}>
                        <td>{item.sku}</td>
                        <td>{item.name}</td>
                        <td className="number">{item.quantity}</td>
                        <td className="number">{item.price === null ? '—' : `${item.price.toFixed(2)} ${data.attributes.currency}`}</td>
                        <td className="number">{Math.round(item.vat * 1000) / 10}%</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
              <h2>Addresses</h2>
              <div className="grid">
                <AddressBlock title="Delivery address" address={related(addresses, data.relationships.deliveryAddress)} />
                <AddressBlock title="Billing address" address={related(addresses, data.relationships.billingAddress)} />
                {pickUpPoint && <AddressBlock title={`Pick-up point ${pickUpPoint.attributes.identifier}`} address={pickUpPoint} />}
              </div>
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
            <TableRegion label="Shipments">
              <table>
                <caption className="visually-hidden">Your shipments, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Shipment</th>
                    <th scope="col">Order</th>
                    <th scope="col">Status</th>
                    <th scope="col">Tracking</th>
                    <th scope="col">Warehouse</th>
                    <th scope="col">Shipped</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((shipment) => (
                    <tr key={shipment.id}>
                      <td>
                        <Link to={`/shipments/${shipment.id}`}>Shipment {shipment.id}</Link>
                      </td>
                      <td>{orderIdOf(shipment) && <Link to={`/orders/${orderIdOf(shipment)}`}>Order {orderIdOf(shipment)}</Link>}</td>
                      <td>
                        <StatusBadge status={shipment.attributes.status} />
                      </td>
                      <td>{shipment.attributes.tracking?.stage ?? '—'}</td>
                      <td>{shipment.attributes.warehouseCode}</td>
                      <td>{dateTime(shipment.attributes.shippedOn)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
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
