// The test scenarios an order follows: what creating one notes about its road, reading where it is on the road, and
// setting a road by hand (PUT /sandbox/orders/{id}/scenario). The roads themselves are walked by the shipments module.
import { and, asc, eq } from 'drizzle-orm';
import { scenarioByName, scenarioProblemReason, type ScenarioName } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { domainError } from '../../platform/errors.ts';
import type { InputWarnings } from '../../platform/request-warnings.ts';
import type { Client } from '../clients/client.ts';
import type { PlacedOrder } from '../orders/repository.ts';
import { refuseWhileAdvancing } from '../clients/clock.ts';
import { lockClientWarehouse } from '../inventory/service.ts';
import { hasPickUpPoint, lockOrder, roadFieldsOfOrder } from '../shipments/repository.ts';
import { isWalked, markerIn, orderRoad, outsideEu } from '../shipments/road.ts';
import { missingGoods, type OrderRow } from '../shipments/service.ts';

const { orders, shipments } = schema;

/** At most this many skus are named in a warning about missing goods; GET /sandbox/orders/{id}/scenario lists them all. */
const namedSkusMax = 5;

export interface OrderScenario {
  name: ScenarioName | null;
  setBy: 'marker' | 'control' | 'condition' | null;
  waitingForStock: { sku: string; quantity: number }[];
  reached: { shipment: number; shipmentId: number; at: number; status: string; trackingStage: string | null }[];
  problem: string | null;
}

/**
 * What a new order's road is, from what placing it returned (no statement of its own: the placing statement found what
 * free stock does not cover of the order's goods, newOrderShortfall in shipments/repository.ts). A marker is noted as a
 * `scenario` warning: the scenario it sets, or why it sets none (the order is real data and is kept). Goods that free
 * stock does not cover are a `scenario` warning too: the order is accepted and waits for them (waits-for-stock, or
 * partial-delivery when it allows that), and the warning says so at once instead of leaving an order that never ships
 * unexplained. The answer is the Sandbox-Scenario header's value: the scenario and what the order waits for; undefined
 * on the ordinary road.
 */
export function noteNewOrder(
  client: Client,
  placed: Pick<PlacedOrder, 'order' | 'deliveryAddress' | 'shortfall'>,
  warnings: InputWarnings,
): string | undefined {
  const { order } = placed;
  const marker = markerIn(order.metadata, 'order', placed.deliveryAddress.countryCode);
  if (marker?.scenario)
    warnings.add('scenario', `the order follows the test scenario ${marker.name} (${marker.scenario.title})`, ['metadata', marker.field]);
  else if (marker) warnings.add('scenario', `${marker.refusal}: the order takes the ordinary road`, ['metadata', marker.field]);
  const missing = placed.shortfall;
  if (!missing.length) return marker?.scenario?.name;
  const named = missing
    .slice(0, namedSkusMax)
    .map((m) => `${m.sku} ${m.quantity}`)
    .join(', ');
  const more = missing.length > namedSkusMax ? ` and ${missing.length - namedSkusMax} more skus` : '';
  const waiting = `not in free stock in ${order.fulfillFrom ?? client.defaultWarehouse}: ${named}${more}`;
  const road = marker?.scenario?.name ?? (order.allowPartialDelivery ? 'partial-delivery' : 'waits-for-stock');
  warnings.add(
    'scenario',
    order.allowPartialDelivery
      ? `${waiting}; the order ships what is in stock and the rest when goods arrive (${road})`
      : `${waiting}; the order waits until goods arrive (${road}; GET /sandbox/orders/${order.id}/scenario shows what it waits for)`,
  );
  return `${road}; ${waiting}`;
}

async function requireOwnOrder(db: Db, clientId: number, id: number): Promise<OrderRow> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(ownedBy(orders, clientId), eq(orders.id, id)));
  if (!order) throw domainError('404-5', `Order ${id} not found.`);
  return order;
}

/** The order's road: the scenario it follows and why, what it waits for, and how far each of its shipments got. */
export async function orderScenario(db: Db, client: Client, orderId: number): Promise<OrderScenario> {
  const order = await requireOwnOrder(db, client.id, orderId);
  const { countryCode } = await roadFieldsOfOrder(db, order.id);
  const own = await db
    .select({ id: shipments.id, status: shipments.status, tracking: shipments.tracking, roadStep: shipments.roadStep })
    .from(shipments)
    .where(eq(shipments.orderId, order.id))
    .orderBy(asc(shipments.id));
  const underWay = own.some((s) => s.status !== 'SHIPPED');
  const waitingForStock = order.fulfilledAt || underWay ? [] : await missingGoods(db, client, order);
  const road = orderRoad(order, countryCode);
  const [name, setBy]: [ScenarioName | null, OrderScenario['setBy']] = road
    ? [road.scenario.name, road.setBy]
    : (await hasPickUpPoint(db, order.id))
      ? ['pick-up-point', 'condition']
      : order.allowPartialDelivery && own.length && (own.length > 1 || !order.fulfilledAt)
        ? ['partial-delivery', 'condition']
        : waitingForStock.length
          ? ['waits-for-stock', 'condition']
          : [null, null];
  return {
    name,
    setBy,
    waitingForStock,
    reached: own.map((s, index) => ({
      shipment: index + 1,
      shipmentId: s.id,
      at: s.roadStep,
      status: s.status,
      trackingStage: s.tracking?.stage ?? null,
    })),
    problem: name === 'warehouse-problem' && own.some((s) => s.status === 'ERROR') ? scenarioProblemReason : null,
  };
}

/**
 * Sets the order's road by hand (null: the ordinary road), until its first shipment ships. Under the client's warehouse
 * lock and the order's row, as the warehouse starts and moves its shipments, so a move never reads half a change.
 */
export async function setOrderScenario(db: Db, clientId: number, orderId: number, name: string | null): Promise<void> {
  const order = await requireOwnOrder(db, clientId, orderId);
  if (name !== null) {
    const scenario = scenarioByName(name);
    const refusal = !scenario
      ? `"${name}" is not a scenario: GET /sandbox/scenarios lists them.`
      : !isWalked(scenario)
        ? `${name} cannot be set: ${scenario.subject === 'order' ? `it follows from the data (${scenario.trigger.condition})` : 'it is a scenario of packing slips, set by a marker when the slip is created'}.`
        : undefined;
    if (refusal) throw domainError('422', refusal, { path: ['name'] });
    const { countryCode } = await roadFieldsOfOrder(db, order.id);
    if (name === 'customs' && !outsideEu(countryCode))
      throw domainError('422', `customs needs a destination outside the EU; order ${order.id} goes to ${countryCode}.`, { path: ['name'] });
  }
  await refuseWhileAdvancing(db, clientId);
  await db.transaction(async (tx) => {
    await lockClientWarehouse(tx, clientId);
    const locked = (await lockOrder(tx, order.id))!;
    const [shipped] = await tx
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.orderId, order.id), eq(shipments.status, 'SHIPPED')))
      .limit(1);
    if (shipped || locked.fulfilledAt) throw domainError('409', `Order ${order.id} has shipped: its road can no longer change.`);
    await tx.update(orders).set({ scenario: name, scenarioSetBy: 'control' }).where(eq(orders.id, order.id));
  });
}
