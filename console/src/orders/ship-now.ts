// Whether the sandbox would ship the order now, read from what the order's screen shows. POST /sandbox/orders/{id}/ship
// (shipOrderNow in the server's modules/shipments) refuses with 422 an order that is fulfilled (its shipped shipments
// cover every item), one that is Not Valid (its delivery address lacks the house number its country requires) and one
// with nothing left to ship; otherwise it ships, whatever the stock and even on hold. The console offers the action only
// where the sandbox would take it, and says why not elsewhere.
import { houseNumberRequiredCountries } from '../api/contract.ts';
import type { Shipment, ShipmentItem } from './shipments.ts';

interface OrderLine {
  id: number;
  attributes: { quantity: number };
}

interface DeliveryAddress {
  attributes: { countryCode: string; houseNumber: string | null };
}

export type ShipNow = { possible: true } | { possible: false; why: string };

/** How many of each order item the shipments carry, counting only those whose status passes `counted`. */
function quantities(shipments: Shipment[], items: ShipmentItem[], counted: (shipment: Shipment) => boolean): Map<number, number> {
  const ids = new Set(shipments.filter(counted).map((shipment) => shipment.id));
  const carried = new Map<number, number>();
  for (const item of items) {
    const orderItem = item.relationships.orderItem.data?.id;
    if (orderItem === undefined || !ids.has(item.relationships.shipment.data?.id ?? 0)) continue;
    carried.set(orderItem, (carried.get(orderItem) ?? 0) + item.attributes.quantity);
  }
  return carried;
}

const covers = (carried: Map<number, number>, lines: OrderLine[]) =>
  lines.every((line) => (carried.get(line.id) ?? 0) >= line.attributes.quantity);

export function shipNow(lines: OrderLine[], delivery: DeliveryAddress | undefined, shipments: Shipment[], items: ShipmentItem[]): ShipNow {
  if (
    covers(
      quantities(shipments, items, (shipment) => shipment.attributes.status === 'SHIPPED'),
      lines,
    )
  ) {
    return { possible: false, why: 'Shipped in full: nothing is left to ship.' };
  }
  const country = delivery?.attributes.countryCode.slice(0, 2).toUpperCase() ?? '';
  if (houseNumberRequiredCountries.has(country) && !delivery?.attributes.houseNumber?.trim()) {
    return {
      possible: false,
      why: `Not Valid: the delivery address has no house number, which ${country} requires, so the warehouse cannot ship it.`,
    };
  }
  const underWay = shipments.some((shipment) => shipment.attributes.status !== 'SHIPPED');
  if (
    !underWay &&
    covers(
      quantities(shipments, items, () => true),
      lines,
    )
  )
    return { possible: false, why: 'Nothing is left to ship.' };
  return { possible: true };
}
