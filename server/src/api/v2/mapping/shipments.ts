// Shipment rows in the v2 shapes: the list item, the search result and the track-trace item, loaded in a fixed number of queries.
import {
  trackTraceCodes,
  trackTraceExceptionLevels,
  trackTraceExceptionWords,
  trackTraceStatusWords,
  type TrackingStage,
  metadataExtraFields,
} from '@shopapi/contract';
import type { Db } from '../../../platform/db/index.ts';
import { itemsOf, type ShipmentRow } from '../../../modules/shipments/service.ts';
import { orderItemMetadataByIds, ordersByIds } from '../../../modules/orders/service.ts';
import { partsOf, skusAndWeightsByIds } from '../../../modules/products/service.ts';
import { shippingMethodsByIds } from '../../../modules/reference/service.ts';
import { iso } from '../../../platform/time.ts';

const extras = (metadata: Record<string, string | null>) => Object.fromEntries(metadataExtraFields.map((k) => [k, metadata[k] ?? null]));
// RETURNED, a scenario's descriptive stage, has no word of the carrier's: it shows as it is, in lower case.
const statusWord = (s: ShipmentRow) =>
  s.tracking?.stage ? (trackTraceStatusWords[s.tracking.stage as TrackingStage] ?? s.tracking.stage.toLowerCase()) : 'New';
const exceptionWord = (s: ShipmentRow) => trackTraceExceptionWords[s.tracking?.status ?? 'OK'];

async function related(db: Db, rows: ShipmentRow[]) {
  const items = await itemsOf(
    db,
    rows.map((s) => s.id),
  );
  const orderIds = [...new Set(rows.map((s) => s.orderId))];
  const methodIds = [...new Set(rows.map((s) => s.shippingMethodId))];
  const productIds = [...new Set(items.map((i) => i.productId))];
  const orderItemIds = items.map((i) => i.orderItemId).filter((id): id is number => id !== null);
  const [orderRows, methodRows, productRows, orderItemRows, partsByProduct] = await Promise.all([
    ordersByIds(db, orderIds),
    shippingMethodsByIds(db, methodIds),
    skusAndWeightsByIds(db, productIds),
    orderItemMetadataByIds(db, orderItemIds),
    // A shipment's items are its client's products, and so are their parts.
    partsOf(db, rows[0]?.clientId ?? 0, productIds),
  ]);
  const partIds = [...partsByProduct.values()].flat().map((p) => p.partId);
  const partProducts = await skusAndWeightsByIds(db, partIds);
  return {
    items,
    order: new Map(orderRows.map((o) => [o.id, o])),
    method: new Map(methodRows.map((m) => [m.id, m])),
    weight: new Map(productRows.map((p) => [p.id, p.weight])),
    itemMetadata: new Map(orderItemRows.map((i) => [i.id, i.metadata])),
    parts: (productId: number, quantity: number) =>
      (partsByProduct.get(productId) ?? []).map((p) => {
        const part = partProducts.find((x) => x.id === p.partId)!;
        return {
          sku: part.sku,
          quantity: p.quantity * quantity,
          serialNrs: [],
          weight: part.weight,
          tht: null,
          extra6: null,
          extra7: null,
          lotNumber: null,
        };
      }),
  };
}

/** A shipment uses its warehouse's shipping method; v2 also names the main method the order chose. */
const mainMethodOf = (s: ShipmentRow, method: { kind: string; mainShippingMethodId: number | null } | undefined) =>
  method?.kind === 'warehouse' && method.mainShippingMethodId ? method.mainShippingMethodId : s.shippingMethodId;

export async function v2ShipmentList(db: Db, rows: ShipmentRow[]) {
  const r = await related(db, rows);
  return rows.map((s) => {
    const items = r.items.filter((i) => i.shipmentId === s.id);
    return {
      id: s.id,
      orderNumber: s.orderId,
      orderType: s.orderTypeId,
      externalOrderNumber: r.order.get(s.orderId)!.externalOrderNumber,
      shippingDate: iso(s.shippedOn),
      numberOfColli: s.colli.length,
      totalNumberOfProducts: items.reduce((sum, i) => sum + i.quantity, 0),
      shippingMethodId: s.shippingMethodId,
      returnPackageNumber: null,
      shippedColli: s.colli.map((c) => ({ colloNr: c.number, packageNumber: c.parcelNumber, trackTraceUrl: c.trackingUrl })),
      shippedProducts: items.map((i) => {
        const metadata = (i.orderItemId && r.itemMetadata.get(i.orderItemId)) || {};
        return {
          sku: i.sku,
          quantity: i.quantity,
          serialNrs: i.serialNumbers,
          weight: r.weight.get(i.productId) ?? null,
          tht: i.expirationDate,
          extra6: metadata.extra6 ?? null,
          extra7: metadata.extra7 ?? null,
          lotNumber: i.lotNumber,
          parts: r.parts(i.productId, i.quantity),
        };
      }),
      basketPicURL: s.basketPicture,
      ...extras(s.metadata),
      currentTrackTraceStatus: statusWord(s),
      currentTrackTraceExceptionLevel: exceptionWord(s),
      warehouseAbbrevation: s.warehouseCode,
      mainShippingMethodId: mainMethodOf(s, r.method.get(s.shippingMethodId)),
    };
  });
}

export async function v2ShipmentSearchResults(db: Db, rows: ShipmentRow[]) {
  const r = await related(db, rows);
  return rows.map((s) => {
    const items = r.items.filter((i) => i.shipmentId === s.id);
    const number = s.tracking?.number ?? s.colli[0]?.parcelNumber ?? null;
    return {
      id: s.id,
      externalOrderNumber: r.order.get(s.orderId)!.externalOrderNumber,
      trackingNumber: number,
      shippingDate: iso(s.shippedOn),
      numberOfColli: s.colli.length,
      totalNumberOfProducts: items.reduce((sum, i) => sum + i.quantity, 0),
      trackAndTraceCode: number,
      trackAndTraceBarCode: number,
      shippingMethodId: s.shippingMethodId,
      returnPackageNumber: null,
      packageNumber: s.colli[0]?.parcelNumber ?? null,
      currentTrackTraceStatus: statusWord(s),
      currentTrackTraceExceptionLevel: exceptionWord(s),
      warehouseAbbreviation: s.warehouseCode,
      mainShippingMethodId: mainMethodOf(s, r.method.get(s.shippingMethodId)),
      shipmentItems: items.map((i) => ({ shipmentItemId: i.id, quantity: i.quantity, sku: i.sku, lotNumber: i.lotNumber })),
    };
  });
}

export async function v2TrackTraceItems(db: Db, rows: ShipmentRow[]) {
  const r = await related(db, rows);
  return rows.map((s) => ({
    shipmentId: s.id,
    externalOrderNumber: r.order.get(s.orderId)!.externalOrderNumber,
    packageNumber: s.colli[0]?.parcelNumber ?? s.tracking?.number ?? null,
    shipmentMethod: r.method.get(s.shippingMethodId)?.name ?? '',
    // A scenario's v2-only code (19 returned, 20 at customs, 21 in transit customs only) goes before the stage's.
    currentTrackTraceStatus: s.trackTraceCode ?? trackTraceCodes[(s.tracking?.stage ?? 'LABELLED') as TrackingStage],
    currentTrackTraceStatusDateTime: iso(s.trackingUpdatedAt),
    currentTrackTraceExceptionLevel: trackTraceExceptionLevels[s.tracking?.status ?? 'OK'],
  }));
}
