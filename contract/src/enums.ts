// The spec's enumerations, in its own words.
export const warehouseCodes = ['NR', 'NN', 'GN', 'BW', 'DD', 'FP'] as const;
export type WarehouseCode = (typeof warehouseCodes)[number];

export const warehouses: Record<WarehouseCode, { place: string; country: string; acceptsGoods: boolean }> = {
  NR: { place: 'Roosendaal', country: 'NL', acceptsGoods: true },
  NN: { place: 'Nieuwegein', country: 'NL', acceptsGoods: true },
  GN: { place: 'Northampton', country: 'GB', acceptsGoods: true },
  BW: { place: 'Willebroek', country: 'BE', acceptsGoods: true },
  DD: { place: 'Dorsten', country: 'DE', acceptsGoods: true },
  FP: { place: 'Pantin', country: 'FR', acceptsGoods: true },
};

export const shipmentStatuses = ['READY_TO_PICK', 'READY_TO_SORT', 'READY_TO_SHIP', 'SHIPPED', 'ERROR'] as const;
export type ShipmentStatus = (typeof shipmentStatuses)[number];

export const trackingStages = ['LABELLED', 'ACCEPTED', 'SORTED', 'IN_DELIVERY', 'AT_PUP', 'DELIVERED', '1ST_ATTEMPT'] as const;
export type TrackingStage = (typeof trackingStages)[number];

export const trackingStatuses = ['OK', 'ERROR', 'WARNING'] as const;

export const printStrategies = ['REQUIRED', 'BEST_EFFORT'] as const;

export const packingSlipStatuses = ['EXPECTED', 'IN_PROGRESS', 'CHECKING', 'CHECKED', 'COMPLETED'] as const;
export const inboundStatuses = ['PROCESSING', 'CHECKING', 'CHECKED', 'COMPLETED'] as const;

export const productStatuses = ['AVAILABLE', 'DISCONTINUED', 'END_OF_LIFE'] as const;
export const productTypes = ['DEFAULT', 'DEFAULT_IN_PACKAGING', 'COMPOSITE', 'PART', 'BUNDLE', 'GREETING_CARD', 'SERVICE'] as const;
export const stockLevelTypes = ['AVAILABLE', 'ECONOMIC'] as const;

export const stockQualities = ['OK', 'DAMAGED', 'TO_SCRAP', 'OVERDUE', 'EXPIRED'] as const;
export const stockStatuses = ['OK', 'NOL_CHECK', 'INBOUND', 'INBOUND_RECOUNT', 'RECOUNT_REQUEST', 'BARCODE_NOT_SCANNABLE'] as const;
export const expirationStatuses = ['OK', 'WARNING', 'OVERDUE', 'EXPIRED'] as const;
export const returnConditions = ['RETURN', 'DAMAGED', 'UNKNOWN'] as const;
export const locationTypes = [
  'PALLET',
  'SPECIAL',
  'PICKABLE',
  'COOLED',
  'INBOUND',
  'OUTBOUND',
  'RETURN',
  'TRANSFER',
  'SECURED',
  'AUTOSTORE',
  'DAMAGED',
  'TO_SCRAP',
  'INSERTS',
] as const;
export const stockMutationTypes = [
  'INBOUND',
  'MOVE',
  'SHIPMENT',
  'RETURN',
  'CORRECTION',
  'COMPOSITION',
  'STATUS',
  'QUALITY',
  'EXPIRATION_DATE',
  'RECEIVED_DATE',
  'LOT_NUMBER',
  'QUARANTINE',
] as const;
export const correctionCodes = [
  'DAMAGED',
  'SCRAPPED',
  'ADJUSTMENT',
  'USED',
  'RETURN',
  'DIFF_QTY_IN_BOX',
  'WRONG_SKU',
  'WRONG_QUANTITY',
  'LEFT_BEHIND',
  'INTERCOMPANY',
  'TO_REFURBISH',
  'RECOUNT',
  'OTHER',
] as const;

/** Valid webhook entity/event pairs (DESIGN.md: the full list). */
export const webhookEvents = {
  shipment: ['shipment.created.3', 'shipment.readyToPick.3', 'shipment.readyToShip.3', 'shipment.shipped.3'],
  inbound: ['inbound.processing', 'inbound.checking', 'inbound.checkingUpdate', 'inbound.checked', 'inbound.processed'],
} as const;
export type WebhookEntity = keyof typeof webhookEvents;

/** The free metadata fields of orders, shipments, products and packing slips (v3 metadata, v2 top-level fields). */
export const metadataExtraFields = ['extra1', 'extra2', 'extra3', 'extra4', 'extra5'] as const;

/** A sandbox clock is ready, or advancing: the warehouse is still catching up with an advance (POST /sandbox/clock/advance). */
export const clockStatuses = ['ready', 'advancing'] as const;
