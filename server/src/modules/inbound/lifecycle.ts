// Inbound and packing slip lifecycles as data: the allowed transitions and the webhook event each inbound transition emits.
import type { inboundStatuses, packingSlipStatuses } from '@shopapi/contract';
import { defineLifecycle } from '../../platform/fsm.ts';

export type InboundStatus = (typeof inboundStatuses)[number];
export type PackingSlipStatus = (typeof packingSlipStatuses)[number];

export const inboundTransitions: Record<InboundStatus, readonly InboundStatus[]> = {
  PROCESSING: ['CHECKING'],
  CHECKING: ['CHECKED'],
  // A checked inbound can still change (a location moves back to checking) until it completes.
  CHECKED: ['COMPLETED', 'CHECKING'],
  COMPLETED: [],
};

/** The event an inbound emits on entering a status; inbound.processing is emitted when the inbound is created. */
export const inboundEvents: Record<InboundStatus, string> = {
  PROCESSING: 'inbound.processing',
  CHECKING: 'inbound.checking',
  CHECKED: 'inbound.checked',
  COMPLETED: 'inbound.processed',
};

/** A location moving from DIFFERENCE_GOODS_RECEIVING to OK or INBOUND CHECKED while the inbound is CHECKING. */
export const inboundCheckingUpdateEvent = 'inbound.checkingUpdate';

export const packingSlipTransitions: Record<PackingSlipStatus, readonly PackingSlipStatus[]> = {
  EXPECTED: ['IN_PROGRESS'],
  IN_PROGRESS: ['CHECKING'],
  CHECKING: ['CHECKED', 'IN_PROGRESS'],
  CHECKED: ['COMPLETED', 'CHECKING'],
  COMPLETED: [],
};

export const inboundLifecycle = defineLifecycle({ transitions: inboundTransitions, events: inboundEvents });

export const packingSlipLifecycle = defineLifecycle({ transitions: packingSlipTransitions });

/** The lifecycles' normal paths, for the tests that read them. */
export { pathBetween } from '../../platform/fsm.ts';
