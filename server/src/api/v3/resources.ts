// Database rows to v3 JSON:API resource objects (orders, shipments and their parts are built in SQL: json-documents.ts).
import type { ProductStockLevels, StockLocationRow, StockMutationRow, StockRow } from '../../modules/inventory/service.ts';
import type { InboundItemRow, InboundRow, PackingSlipItemRow, PackingSlipRow } from '../../modules/inbound/service.ts';
import type { ReturnItemRow } from '../../modules/returns/service.ts';
import type { ProductPart, ProductRow } from '../../modules/products/service.ts';
import type { WebhookRow } from '../../modules/webhooks/service.ts';
import type { ReturnReasonRow, ShippingMethodRow } from '../../modules/reference/service.ts';
import type { AttachmentRow } from '../../modules/orders/attachments.ts';

export interface ResourceObject {
  type: string;
  id: number;
  [key: string]: unknown;
}

const one = (type: string, id: number | null | undefined) => ({ data: id ? { type, id } : null });
const many = (type: string, ids: number[]) => ({ data: ids.map((id) => ({ type, id })) });
const self = (base: string, resource: string, id: number) => ({ self: `${base}/v3/${resource}/${id}` });
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const extras = (metadata: Record<string, string | null>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, metadata[k] ?? null]));

export function productResource(p: ProductRow, parts: ProductPart[], base: string): ResourceObject {
  return {
    type: 'product',
    id: p.id,
    attributes: {
      sku: p.sku,
      name: p.name,
      description: p.description,
      hasBarcode: p.hasBarcode,
      barcode: p.barcode,
      type: p.type,
      status: p.status,
      stockLevelType: p.stockLevelType,
      hasLotNumber: p.hasLotNumber,
      hasSerialNumber: p.hasSerialNumber,
      hasExpirationDate: p.hasExpirationDate,
      expirationDate: p.expirationDate,
      expirationDateMargin: p.expirationDateMargin,
      expirationDateWarning: p.expirationDateWarning,
      countryOfOrigin: p.countryOfOrigin,
      hsCodes: p.hsCodes,
      purchasePrice: p.purchasePrice.map((price) => ({ currency: price.currency, amount: Number(price.amount) })),
      metadata: extras(p.metadata, ['extra1', 'extra2', 'extra3', 'extra4', 'extra5']),
      weight: p.weight,
      length: p.length,
      width: p.width,
      height: p.height,
    },
    relationships: {
      // The stock level of a product has the product's id.
      stockLevels: one('stockLevel', p.id),
      parts: { data: parts.map((part) => ({ type: 'product', id: part.partId, meta: { quantity: part.quantity } })) },
    },
    links: self(base, 'products', p.id),
  };
}

/** An order attachment without its contents, which are never returned. */
export function orderAttachmentResource(a: AttachmentRow, base: string): ResourceObject {
  return {
    type: 'orderAttachment',
    id: a.id,
    attributes: {
      filename: a.filename,
      contentType: a.contentType,
      printStrategy: a.printStrategy,
      externalOrderNumber: a.externalOrderNumber,
      createdOn: a.createdAt.toISOString(),
    },
    relationships: { order: one('order', a.orderId) },
    links: self(base, 'orderAttachments', a.id),
  };
}

export function stockResource(s: StockRow, base: string): ResourceObject {
  return {
    type: 'stock',
    id: s.id,
    attributes: {
      sku: s.sku,
      quantity: s.quantity,
      locationType: s.locationType,
      locationCode: s.locationCode,
      quality: s.quality,
      status: s.status,
      expirationDate: s.expirationDate,
      expirationStatus: s.expirationStatus,
      lotNumber: s.lotNumber,
      quarantined: s.quarantined,
      modifiedOn: s.modifiedOn.toISOString(),
      receivedOn: s.receivedOn.toISOString(),
    },
    relationships: {
      stockLocation: one('stockLocation', s.stockLocationId),
      product: one('product', s.productId),
      inboundItem: one('inboundItem', s.inboundItemId),
    },
    links: self(base, 'stock', s.id),
  };
}

export function stockLocationResource(l: StockLocationRow, base: string): ResourceObject {
  return {
    type: 'stockLocation',
    id: l.id,
    attributes: { warehouseCode: l.warehouseCode, locationType: l.locationType, locationCode: l.locationCode },
    links: self(base, 'stockLocations', l.id),
  };
}

export function stockLevelResource(level: ProductStockLevels, base: string): ResourceObject {
  return {
    type: 'stockLevel',
    id: level.productId,
    attributes: { sku: level.sku, mutatedOn: iso(level.mutatedOn), levels: level.levels },
    relationships: { product: one('product', level.productId) },
    links: self(base, 'stockLevels', level.productId),
  };
}

export function stockMutationResource(m: StockMutationRow, base: string): ResourceObject {
  return {
    type: 'stockMutation',
    id: m.id,
    attributes: {
      type: m.type,
      createdOn: m.createdOn.toISOString(),
      warehouseCode: m.warehouseCode,
      locationType: m.locationType,
      locationCode: m.locationCode,
      sku: m.sku,
      quantity: m.quantity,
      quality: m.quality,
      status: m.status,
      expirationDate: m.expirationDate,
      lotNumber: m.lotNumber,
      correctionCode: m.correctionCode,
      remarks: m.remarks,
    },
    relationships: {
      product: one('product', m.productId),
      returnItem: one('returnItem', m.returnItemId),
      inboundItem: one('inboundItem', m.inboundItemId),
      shipmentItem: one('shipmentItem', m.shipmentItemId),
    },
    links: self(base, 'stockMutations', m.id),
  };
}

export function packingSlipResource(s: PackingSlipRow, itemIds: number[], inboundId: number | undefined, base: string): ResourceObject {
  return {
    type: 'inboundPackingSlip',
    id: s.id,
    attributes: {
      expectedIn: s.expectedIn,
      expectedOn: s.expectedOn,
      receivedOn: iso(s.receivedOn),
      completedOn: iso(s.completedOn),
      reference: s.reference,
      status: s.status,
      comments: s.comments,
      metadata: extras(s.metadata, ['extra1', 'extra2', 'extra3', 'extra4', 'extra5']),
    },
    relationships: { inboundPackingSlipItems: many('inboundPackingSlipItem', itemIds), inbound: one('inbound', inboundId) },
    links: self(base, 'inboundPackingSlips', s.id),
  };
}

export function packingSlipItemResource(i: PackingSlipItemRow, base: string): ResourceObject {
  return {
    type: 'inboundPackingSlipItem',
    id: i.id,
    attributes: { sku: i.sku, quantity: i.quantity, received: i.received },
    relationships: { inboundPackingSlip: one('inboundPackingSlip', i.inboundPackingSlipId), product: one('product', i.productId) },
    links: self(base, 'inboundPackingSlipItems', i.id),
  };
}

export function inboundResource(i: InboundRow, itemIds: number[], base: string): ResourceObject {
  return {
    type: 'inbound',
    id: i.id,
    attributes: {
      reference: i.reference,
      status: i.status,
      receivedIn: i.receivedIn,
      createdOn: i.createdOn.toISOString(),
      checkingOn: iso(i.checkingOn),
      completedOn: iso(i.completedOn),
    },
    relationships: { inboundPackingSlip: one('inboundPackingSlip', i.inboundPackingSlipId), inboundItems: many('inboundItem', itemIds) },
    links: self(base, 'inbounds', i.id),
  };
}

export function inboundItemResource(i: InboundItemRow, base: string): ResourceObject {
  return {
    type: 'inboundItem',
    id: i.id,
    attributes: { quantity: i.quantity, sku: i.sku, lotNumber: i.lotNumber, expirationDate: i.expirationDate },
    relationships: {
      inbound: one('inbound', i.inboundId),
      product: one('product', i.productId),
      inboundPackingSlipItem: one('inboundPackingSlipItem', i.inboundPackingSlipItemId),
    },
    links: self(base, 'inboundItems', i.id),
  };
}

export function returnItemResource(r: ReturnItemRow, base: string): ResourceObject {
  return {
    type: 'returnItem',
    id: r.id,
    attributes: {
      sku: r.sku,
      quantity: r.quantity,
      condition: r.condition,
      processedOn: iso(r.processedOn),
      processedIn: r.processedIn,
      restockIn: r.restockIn,
      restockOn: iso(r.restockOn),
      comment: r.comment,
      redeliver: r.redeliver,
      externalOrderNumber: r.externalOrderNumber,
    },
    relationships: {
      order: one('order', r.orderId),
      orderItem: one('orderItem', r.orderItemId),
      product: one('product', r.productId),
      return: one('return', r.returnId),
      // One row is both the announced RMA item and the processed return item.
      returnAuthorizationItem: one('returnAuthorizationItem', r.id),
      returnReason: one('returnReason', r.returnReasonId),
      shipmentItem: one('shipmentItem', r.shipmentItemId),
    },
    links: self(base, 'returnItems', r.id),
  };
}

export function webhookResource(w: WebhookRow, base: string, opts: { withSecret?: boolean } = {}): ResourceObject {
  return {
    type: 'webhook',
    id: w.id,
    // The secret is shown once, in the answer that created it.
    attributes: {
      entity: w.entity,
      event: w.event,
      targetUrl: w.targetUrl,
      isActive: w.isActive,
      ...(opts.withSecret ? { secret: w.secret } : {}),
    },
    links: self(base, 'webhooks', w.id),
  };
}

export function shippingMethodResource(m: ShippingMethodRow, base: string): ResourceObject {
  return {
    type: 'shippingMethod',
    id: m.id,
    attributes: {
      code: m.code,
      name: m.name,
      carrier: m.carrier,
      kind: m.kind.toUpperCase(),
      warehouseCode: m.warehouse,
      paperless: m.paperless,
    },
    relationships: { mainShippingMethod: one('shippingMethod', m.mainShippingMethodId) },
    links: self(base, 'shippingMethods', m.id),
  };
}

export function returnReasonResource(r: ReturnReasonRow, base: string): ResourceObject {
  return { type: 'returnReason', id: r.id, attributes: { code: r.code, name: r.name }, links: self(base, 'returnReasons', r.id) };
}
