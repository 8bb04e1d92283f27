// Shipment and tracking lifecycles as data: the allowed transitions and the webhook event each one emits.
import type { ShipmentStatus, TrackingStage } from '@shopapi/contract';
import { defineLifecycle } from '../../platform/fsm.ts';

/** The normal path is listed first. */
const shipmentTransitions: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  READY_TO_PICK: ['READY_TO_SORT', 'ERROR'],
  READY_TO_SORT: ['READY_TO_SHIP', 'ERROR'],
  READY_TO_SHIP: ['SHIPPED', 'ERROR'],
  // An operator resolves the problem and the shipment is picked again.
  ERROR: ['READY_TO_PICK'],
  // Shipments never change after SHIPPED, except their tracking.
  SHIPPED: [],
};

/** The shipment's status: its webhook events on entering a status, shipment.created.3 when it is created. */
export const shipmentLifecycle = defineLifecycle({
  transitions: shipmentTransitions,
  created: 'shipment.created.3',
  events: {
    READY_TO_PICK: 'shipment.readyToPick.3',
    READY_TO_SHIP: 'shipment.readyToShip.3',
    SHIPPED: 'shipment.shipped.3',
  },
});

/** After SHIPPED the carrier moves the parcel; AT_PUP only for deliveries to a pick-up point. */
const trackingTransitions: Record<TrackingStage, readonly TrackingStage[]> = {
  LABELLED: ['ACCEPTED'],
  ACCEPTED: ['SORTED'],
  SORTED: ['IN_DELIVERY'],
  IN_DELIVERY: ['DELIVERED', 'AT_PUP', '1ST_ATTEMPT'],
  '1ST_ATTEMPT': ['IN_DELIVERY', 'AT_PUP'],
  AT_PUP: ['DELIVERED'],
  DELIVERED: [],
};

/** The parcel's tracking stage after SHIPPED; it emits no webhook event of its own. */
export const trackingLifecycle = defineLifecycle({ transitions: trackingTransitions });

/** The next tracking stage of a parcel that is delivered at home, or at a pick-up point. */
export function nextTrackingStage(from: TrackingStage, toPickUpPoint: boolean): TrackingStage | undefined {
  if (from === 'IN_DELIVERY' || from === '1ST_ATTEMPT') return toPickUpPoint ? 'AT_PUP' : 'DELIVERED';
  return trackingLifecycle.next(from);
}
