// Inbounds, with their items as includes. Webhook payloads of inbounds are made here too (events.ts).
import type { Db } from '../platform/db/index.ts';
import { itemsOfInbounds, type InboundRow } from '../modules/inbound/service.ts';
import { cutByItems, many, one, self, type ResourceObject } from './resource.ts';
import { iso } from '../platform/time.ts';
import { inboundItemResource } from './inbound-items.ts';

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

/**
 * The inbounds of `rows` (as the inbound service selected them), with their items when `include` names them: one
 * query. With items included, a page ends early (`rows`: the inbounds kept, `cut`) rather than pass the per-page bound.
 */
export async function inboundDocuments(db: Db, all: InboundRow[], include: ReadonlySet<string>, base: string) {
  const allItems = await itemsOfInbounds(
    db,
    all.map((i) => i.id),
  );
  const { rows, items, cut } = include.size ? cutByItems(all, allItems, (i) => i.inboundId) : { rows: all, items: allItems, cut: false };
  return {
    data: rows.map((i) =>
      inboundResource(
        i,
        items.filter((item) => item.inboundId === i.id).map((item) => item.id),
        base,
      ),
    ),
    ...(include.size ? { included: items.map((i) => inboundItemResource(i, base)) } : {}),
    rows,
    cut,
  };
}
