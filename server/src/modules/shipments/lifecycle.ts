// Shipment and tracking lifecycles as data: the allowed transitions and the webhook event each one emits.
import type { ShipmentStatus, TrackingStage } from '@shopapi/contract';
import { domainError } from '../../platform/errors.ts';

export const shipmentTransitions: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  READY_TO_PICK: ['READY_TO_SORT', 'ERROR'],
  READY_TO_SORT: ['READY_TO_SHIP', 'ERROR'],
  READY_TO_SHIP: ['SHIPPED', 'ERROR'],
  // An operator resolves the problem and the shipment is picked again.
  ERROR: ['READY_TO_PICK'],
  // Shipments never change after SHIPPED, except their tracking.
  SHIPPED: [],
};

/** Emitted on entering a status; shipment.created.3 is emitted when the shipment is created. */
export const shipmentEvents: Partial<Record<ShipmentStatus, string>> = {
  READY_TO_PICK: 'shipment.readyToPick.3',
  READY_TO_SHIP: 'shipment.readyToShip.3',
  SHIPPED: 'shipment.shipped.3',
};
export const shipmentCreatedEvent = 'shipment.created.3';

/** After SHIPPED the carrier moves the parcel; AT_PUP only for deliveries to a pick-up point. */
export const trackingTransitions: Record<TrackingStage, readonly TrackingStage[]> = {
  LABELLED: ['ACCEPTED'],
  ACCEPTED: ['SORTED'],
  SORTED: ['IN_DELIVERY'],
  IN_DELIVERY: ['DELIVERED', 'AT_PUP', '1ST_ATTEMPT'],
  '1ST_ATTEMPT': ['IN_DELIVERY', 'AT_PUP'],
  AT_PUP: ['DELIVERED'],
  DELIVERED: [],
};

/** The one check every shipment or tracking move goes through. */
export function assertTransition<S extends string>(table: Record<S, readonly S[]>, what: string, from: S, to: S): void {
  if (!table[from].includes(to)) throw domainError('409', `${what} cannot move from ${from} to ${to}.`);
}

/** The next status on the normal path (never ERROR); undefined at the end. */
export const nextShipmentStatus = (from: ShipmentStatus): ShipmentStatus | undefined =>
  shipmentTransitions[from].find((s) => s !== 'ERROR');

/** The next tracking stage of a parcel that is delivered at home, or at a pick-up point. */
export function nextTrackingStage(from: TrackingStage, toPickUpPoint: boolean): TrackingStage | undefined {
  if (from === 'IN_DELIVERY' || from === '1ST_ATTEMPT') return toPickUpPoint ? 'AT_PUP' : 'DELIVERED';
  return trackingTransitions[from][0];
}
