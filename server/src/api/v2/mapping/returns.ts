// The v2 RMA onto the returns service: the documented shipmentId with rmaItems, or the deprecated shape older integrations
// send (ExternalOrderNumber with ApiRmaNotificationItemViewModels by sku), matched to one shipment's items.
import type { Static } from '@sinclair/typebox';
import { v2Messages, type V2RmaAdd } from '@shopapi/contract';
import type { Db } from '../../../platform/db/index.ts';
import { requireOrderByExternalNumber } from '../../../modules/orders/service.ts';
import type { NewReturn } from '../../../modules/returns/service.ts';
import { shippedItemsOfOrder } from '../../../modules/shipments/service.ts';
import { noWarnings, type WarningSink } from '../../../platform/request-warnings.ts';
import { findReturnReasonByCode } from '../../../modules/reference/service.ts';
import { DomainError, domainError } from '../../../platform/errors.ts';

type Body = Static<typeof V2RmaAdd>;
type LegacyLine = NonNullable<Body['apiRmaNotificationItemViewModels']>[number];

/** Shape problems in the words body validation uses: "malformed contents" with the problems as result. */
const malformed = (problem: string) => new DomainError({ code: '400', detail: v2Messages.malformed }, { result: [problem] });

/** The return to register, from either shape; a mix of the two is refused rather than guessed. */
export async function returnFromV2(db: Db, clientId: number, body: Body, warnings: WarningSink = noWarnings): Promise<NewReturn> {
  const { shipmentId, rmaItems, externalOrderNumber, apiRmaNotificationItemViewModels: legacy, remark, externalReference } = body;
  if (rmaItems && legacy) throw malformed('Send rmaItems or ApiRmaNotificationItemViewModels, not both.');
  if (legacy) {
    if (shipmentId) throw malformed('shipmentId goes with rmaItems; with ApiRmaNotificationItemViewModels send ExternalOrderNumber.');
    if (!externalOrderNumber) throw malformed('ExternalOrderNumber is required with ApiRmaNotificationItemViewModels.');
    warnings.add('alias', 'deprecated; use shipmentId', '/externalOrderNumber');
    warnings.add('alias', 'deprecated; use rmaItems (shipmentItemId, quantity, returnReasonId)', '/apiRmaNotificationItemViewModels');
    return { ...(await legacyReturn(db, clientId, externalOrderNumber, legacy)), remark, externalReference };
  }
  if (!shipmentId) throw malformed('shipmentId is required.');
  if (!rmaItems) throw malformed('rmaItems is required.');
  if (externalOrderNumber)
    warnings.add('ignored', 'read only with ApiRmaNotificationItemViewModels; shipmentId names the shipment', '/externalOrderNumber');
  return { shipmentId, remark, externalReference, items: rmaItems };
}

/**
 * An RMA is for one shipment: the one shipped shipment of the order that carries every sku. Each line's quantity is
 * spread over that shipment's items with its sku, in item order. Any doubt (a sku not shipped, skus on different
 * shipments, several shipments that fit) is a NOK that says where each sku went, never a guess.
 */
async function legacyReturn(
  db: Db,
  clientId: number,
  externalOrderNumber: string,
  lines: LegacyLine[],
): Promise<Pick<NewReturn, 'shipmentId' | 'items'>> {
  const order = await requireOrderByExternalNumber(db, clientId, externalOrderNumber);
  const [shipped, damaged] = await Promise.all([
    shippedItemsOfOrder(db, clientId, order.id),
    // The client shapes its return reasons: DAMAGED in any case, or none (then the line has no reason).
    findReturnReasonByCode(db, clientId, 'DAMAGED'),
  ]);
  const skus = [...new Set(lines.map((line) => line.productSku))];
  const shipmentsOf = (sku: string) => [...new Set(shipped.filter((item) => item.sku === sku).map((item) => item.shipmentId))];
  const notShipped = skus.filter((sku) => !shipmentsOf(sku).length);
  if (notShipped.length)
    throw domainError('400', `SKU ${notShipped.map((sku) => `"${sku}"`).join(', ')} was not shipped for order "${externalOrderNumber}".`);

  const fitting = [...new Set(shipped.map((item) => item.shipmentId))].filter((id) => skus.every((sku) => shipmentsOf(sku).includes(id)));
  if (fitting.length !== 1) {
    const where = skus.map((sku) => `"${sku}" in shipment ${shipmentsOf(sku).join(', ')}`).join('; ');
    throw domainError(
      '400',
      fitting.length
        ? `Several shipments of order "${externalOrderNumber}" carry these SKUs (${where}): register the return with shipmentId and rmaItems.`
        : `No single shipment of order "${externalOrderNumber}" carries every SKU (${where}): register one return per shipment with shipmentId and rmaItems.`,
    );
  }

  const shipmentId = fitting[0];
  const left = new Map(shipped.filter((item) => item.shipmentId === shipmentId).map((item) => [item.id, item.quantity]));
  const items: NewReturn['items'] = [];
  for (const line of lines) {
    let wanted = line.quantity;
    for (const item of shipped.filter((i) => i.shipmentId === shipmentId && i.sku === line.productSku)) {
      const take = Math.min(wanted, left.get(item.id)!);
      if (!take) continue;
      left.set(item.id, left.get(item.id)! - take);
      wanted -= take;
      items.push({
        shipmentItemId: item.id,
        quantity: take,
        returnReasonId: line.isDamaged === true || line.isDamaged === 1 ? (damaged?.id ?? null) : null,
      });
      if (!wanted) break;
    }
    if (wanted) {
      const total = shipped.filter((i) => i.shipmentId === shipmentId && i.sku === line.productSku).reduce((sum, i) => sum + i.quantity, 0);
      throw domainError('400', `More of SKU "${line.productSku}" is returned than the ${total} shipped in shipment ${shipmentId}.`);
    }
  }
  return { shipmentId, items };
}
