// Inbound packing slips, with their items as includes and their latest inbound as a relationship.
import type { Db } from '../platform/db/index.ts';
import { itemsOfPackingSlips, latestInbounds, type PackingSlipRow } from '../modules/inbound/service.ts';
import { cutByItems, extras, many, one, self, type ResourceObject } from './resource.ts';
import { iso } from '../platform/time.ts';
import { metadataExtraFields } from '@shopapi/contract';
import { packingSlipItemResource } from './inbound-packing-slip-items.ts';

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
      metadata: extras(s.metadata, metadataExtraFields),
    },
    relationships: { inboundPackingSlipItems: many('inboundPackingSlipItem', itemIds), inbound: one('inbound', inboundId) },
    links: self(base, 'inboundPackingSlips', s.id),
  };
}

/**
 * The packing slips of `rows` (as the inbound service selected them), with their items when `include` names them: two
 * queries. With items included, a page ends early (`rows`: the slips kept, `cut`) rather than pass the per-page bound.
 */
export async function packingSlipDocuments(db: Db, all: PackingSlipRow[], include: ReadonlySet<string>, base: string) {
  const [allItems, inbounds] = await Promise.all([
    itemsOfPackingSlips(
      db,
      all.map((s) => s.id),
    ),
    latestInbounds(
      db,
      all.map((s) => s.id),
    ),
  ]);
  const { rows, items, cut } = include.size
    ? cutByItems(all, allItems, (i) => i.inboundPackingSlipId)
    : { rows: all, items: allItems, cut: false };
  return {
    data: rows.map((s) =>
      packingSlipResource(
        s,
        items.filter((i) => i.inboundPackingSlipId === s.id).map((i) => i.id),
        inbounds.get(s.id),
        base,
      ),
    ),
    ...(include.size ? { included: items.map((i) => packingSlipItemResource(i, base)) } : {}),
    rows,
    cut,
  };
}
