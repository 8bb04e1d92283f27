// Shipment lifecycle as data: the allowed transitions and the webhook event each one emits.
import type { ShipmentStatus } from '@shopapi/contract';

export const shipmentTransitions: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  READY_TO_PICK: ['READY_TO_SORT', 'ERROR'],
  READY_TO_SORT: ['READY_TO_SHIP', 'ERROR'],
  READY_TO_SHIP: ['SHIPPED', 'ERROR'],
  ERROR: ['READY_TO_PICK', 'READY_TO_SORT', 'READY_TO_SHIP'],
  SHIPPED: [],
};

export const shipmentEvents: Partial<Record<ShipmentStatus, string>> = {
  READY_TO_PICK: 'shipment.readyToPick.3',
  READY_TO_SHIP: 'shipment.readyToShip.3',
  SHIPPED: 'shipment.shipped.3',
};

export function canTransition(from: ShipmentStatus, to: ShipmentStatus): boolean {
  return shipmentTransitions[from].includes(to);
}

/** The path from a status to SHIPPED through the normal states. */
export function pathToShipped(from: ShipmentStatus): ShipmentStatus[] {
  const path: ShipmentStatus[] = [];
  let current = from === 'ERROR' ? 'READY_TO_PICK' : from;
  if (from === 'ERROR') path.push(current);
  while (current !== 'SHIPPED') {
    current = shipmentTransitions[current].find((s) => s !== 'ERROR')!;
    path.push(current);
  }
  return path;
}
