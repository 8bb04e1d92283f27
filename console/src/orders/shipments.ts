// Shipments as the orders area shows them: their lifecycle and tracking stages in order, and the sandbox's moves.
import type { ItemOf, ShopApiClient } from '@shopapi/client';
import type { IncludedOf } from '../api/collections.ts';
import { shipmentStatuses, trackingStages } from '../api/contract.ts';
import { write } from '../api/errors.ts';
import type { Step } from '../components/Timeline.tsx';

export type Shipment = ItemOf<'/v3/shipments'>;
export type ShipmentItem = IncludedOf<'/v3/shipments'>;

/** READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP → SHIPPED, with the times the shipment records; ERROR is a side state. */
export function statusSteps({ attributes: shipment }: Shipment): Step[] {
  const at: Partial<Record<string, string | null>> = {
    READY_TO_PICK: shipment.readyToPickOn,
    READY_TO_SHIP: shipment.readyToShipOn,
    SHIPPED: shipment.shippedOn,
  };
  return shipmentStatuses.filter((status) => status !== 'ERROR').map((name) => ({ name, at: at[name] }));
}

/** LABELLED → ACCEPTED → SORTED → IN_DELIVERY → (AT_PUP, for a pick-up point) → DELIVERED; 1ST_ATTEMPT is a side state. */
export function trackingSteps(viaPickUpPoint: boolean): Step[] {
  return trackingStages.filter((stage) => stage !== '1ST_ATTEMPT' && (viaPickUpPoint || stage !== 'AT_PUP')).map((name) => ({ name }));
}

/** Only a shipment on its way to SHIPPED can be put in ERROR (the lifecycle's transitions). */
export const canFail = (status: Shipment['attributes']['status']) =>
  status === 'READY_TO_PICK' || status === 'READY_TO_SORT' || status === 'READY_TO_SHIP';

/** The sandbox's moves on one shipment. */
export const shipmentMoves = {
  advance: (api: ShopApiClient, id: number) => write(api.POST('/sandbox/shipments/{id}/advance', { params: { path: { id } } })),
  error: (api: ShopApiClient, id: number) => write(api.POST('/sandbox/shipments/{id}/error', { params: { path: { id } } })),
};
export type ShipmentMove = keyof typeof shipmentMoves;
