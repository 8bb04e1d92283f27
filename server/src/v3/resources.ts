// Database rows to v3 JSON:API resource objects, and compound documents without duplicates.
import type { AddressRow, OrderGraph, OrderItemRow, PickUpPointRow } from '../domain/orders/service.ts';
import type { ShipmentItemRow, ShipmentRow } from '../domain/shipments/service.ts';
import type { ProductPart, ProductRow } from '../domain/products/service.ts';

export interface ResourceObject { type: string; id: number; [key: string]: unknown }

const one = (type: string, id: number | null | undefined) => ({ data: id ? { type, id } : null });
const many = (type: string, ids: number[]) => ({ data: ids.map((id) => ({ type, id })) });
const self = (base: string, resource: string, id: number) => ({ self: `${base}/v3/${resource}/${id}` });
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const extras = (metadata: Record<string, string | null>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, metadata[k] ?? null]));

export function orderResource(graph: OrderGraph, base: string): ResourceObject {
  const o = graph.order;
  return {
    type: 'order',
    id: o.id,
    attributes: {
      externalOrderNumber: o.externalOrderNumber, locale: o.locale, reference: o.reference, orderedOn: iso(o.orderedOn),
      consumerReference: o.consumerReference, promotionCode: o.promotionCode, email: o.email, phoneNumber: o.phoneNumber,
      vatNumber: o.vatNumber, fulfillFrom: o.fulfillFrom, preferredShippingDate: o.preferredShippingDate,
      allowPartialDelivery: o.allowPartialDelivery, onHold: o.onHold, metadata: extras(o.metadata, ['extra1', 'extra2', 'extra3', 'extra4', 'extra5']),
      channelIdentifier: o.channelIdentifier, currency: o.currency, createdOn: o.createdAt.toISOString(),
    },
    relationships: {
      orderType: one('orderType', o.orderTypeId),
      preferredShippingMethod: one('shippingMethod', o.preferredShippingMethodId),
      deliveryAddress: one('address', o.deliveryAddressId),
      billingAddress: one('address', o.billingAddressId),
      pickUpPoint: one('pickUpPoint', graph.pickUpPoint?.id),
      orderItems: many('orderItem', graph.items.map((i) => i.id)),
      orderAttachments: many('orderAttachment', graph.attachmentIds),
    },
    links: self(base, 'orders', o.id),
  };
}

export function orderItemResource(i: OrderItemRow, base: string): ResourceObject {
  return {
    type: 'orderItem',
    id: i.id,
    attributes: {
      sku: i.sku, quantity: i.quantity, channelIdentifier: i.channelIdentifier, fulfillFrom: i.fulfillFrom,
      price: i.price === null ? null : Number(i.price), vat: Number(i.vat), name: i.name, metadata: extras(i.metadata, ['extra6', 'extra7']),
    },
    relationships: { order: one('order', i.orderId), product: one('product', i.productId) },
    links: self(base, 'orderItems', i.id),
  };
}

export function addressResource(a: AddressRow, base: string): ResourceObject {
  const { id, clientId: _client, orderId: _order, ...attributes } = a;
  return { type: 'address', id, attributes, links: self(base, 'addresses', id) };
}

export function pickUpPointResource(p: PickUpPointRow, base: string): ResourceObject {
  const { id, clientId: _client, orderId: _order, ...attributes } = p;
  return { type: 'pickUpPoint', id, attributes, links: self(base, 'pickUpPoints', id) };
}

/** The related resources an order document includes, in a stable order, each once. */
export function orderIncluded(graph: OrderGraph, include: Set<string>, base: string): ResourceObject[] {
  const out: ResourceObject[] = [];
  if (include.has('orderItems')) out.push(...graph.items.map((i) => orderItemResource(i, base)));
  for (const [path, id] of [['deliveryAddress', graph.order.deliveryAddressId], ['billingAddress', graph.order.billingAddressId]] as const) {
    const address = include.has(path) ? graph.addresses.find((a) => a.id === id) : undefined;
    if (address) out.push(addressResource(address, base));
  }
  if (include.has('pickUpPoint') && graph.pickUpPoint) out.push(pickUpPointResource(graph.pickUpPoint, base));
  return uniqueResources(out);
}

export function shipmentResource(s: ShipmentRow, itemIds: number[], base: string): ResourceObject {
  return {
    type: 'shipment',
    id: s.id,
    attributes: {
      status: s.status, readyToPickOn: iso(s.readyToPickOn), readyToShipOn: iso(s.readyToShipOn), shippedOn: iso(s.shippedOn),
      warehouseCode: s.warehouseCode, weight: s.weight, invoicingWeight: s.invoicingWeight, basketPicture: s.basketPicture,
      returnLabel: s.returnLabel, metadata: extras(s.metadata, ['extra1', 'extra2', 'extra3', 'extra4', 'extra5']),
      tracking: s.tracking, colli: s.colli,
    },
    relationships: {
      order: one('order', s.orderId), orderType: one('orderType', s.orderTypeId),
      shipmentItems: many('shipmentItem', itemIds), shippingMethod: one('shippingMethod', s.shippingMethodId),
    },
    links: self(base, 'shipments', s.id),
  };
}

export function shipmentItemResource(i: ShipmentItemRow, base: string): ResourceObject {
  return {
    type: 'shipmentItem',
    id: i.id,
    attributes: { sku: i.sku, quantity: i.quantity, lotNumber: i.lotNumber, expirationDate: i.expirationDate, serialNumbers: i.serialNumbers },
    relationships: { orderItem: one('orderItem', i.orderItemId), product: one('product', i.productId), shipment: one('shipment', i.shipmentId) },
    links: self(base, 'shipmentItems', i.id),
  };
}

export function productResource(p: ProductRow, parts: ProductPart[], base: string): ResourceObject {
  return {
    type: 'product',
    id: p.id,
    attributes: {
      sku: p.sku, name: p.name, description: p.description, hasBarcode: p.hasBarcode, barcode: p.barcode, type: p.type, status: p.status,
      stockLevelType: p.stockLevelType, hasLotNumber: p.hasLotNumber, hasSerialNumber: p.hasSerialNumber, hasExpirationDate: p.hasExpirationDate,
      expirationDate: p.expirationDate, expirationDateMargin: p.expirationDateMargin, expirationDateWarning: p.expirationDateWarning,
      countryOfOrigin: p.countryOfOrigin, hsCodes: p.hsCodes, purchasePrice: p.purchasePrice.map((price) => ({ currency: price.currency, amount: Number(price.amount) })),
      metadata: extras(p.metadata, ['extra1', 'extra2', 'extra3', 'extra4', 'extra5']),
      weight: p.weight, length: p.length, width: p.width, height: p.height,
    },
    relationships: {
      // The stock level of a product has the product's id.
      stockLevels: one('stockLevel', p.id),
      parts: { data: parts.map((part) => ({ type: 'product', id: part.partId, meta: { quantity: part.quantity } })) },
    },
    links: self(base, 'products', p.id),
  };
}

/** Included resources without duplicates (same type and id once). */
export function uniqueResources(list: ResourceObject[]): ResourceObject[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const key = `${r.type}:${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
