// "What happened meanwhile": the warehouse's state read before and after an advance of the clock, and the differences
// as sentences with a link to what changed.
import type { ShopApiClient } from '@shopapi/client';
import { readAll } from '../api/collections.ts';

interface State {
  label: string;
  path: string;
  /** Status, and for shipments the tracking stage. */
  state: string;
}

export type Snapshot = { resources: Map<string, State>; stockMutations: Map<number, string> };

export interface Change {
  key: string;
  label: string;
  path: string;
  /** Undefined for something new. */
  from?: string;
  to: string;
}

export async function snapshot(api: ShopApiClient): Promise<Snapshot> {
  const [shipments, packingSlips, inbounds, mutations] = await Promise.all([
    readAll(api, '/v3/shipments'),
    readAll(api, '/v3/inboundPackingSlips'),
    readAll(api, '/v3/inbounds'),
    readAll(api, '/v3/stockMutations'),
  ]);
  const resources = new Map<string, State>();
  for (const { id, attributes, relationships } of shipments.data) {
    const order = relationships.order.data?.id;
    resources.set(`shipment ${id}`, {
      label: `Shipment ${id}${order ? ` of order ${order}` : ''}`,
      path: `/shipments/${id}`,
      state: [attributes.status, attributes.tracking?.stage].filter(Boolean).join(', tracking '),
    });
  }
  for (const { id, attributes } of packingSlips.data) {
    resources.set(`packing slip ${id}`, {
      label: `Packing slip ${attributes.reference}`,
      path: `/inbound/packing-slips/${id}`,
      state: attributes.status,
    });
  }
  for (const { id, attributes } of inbounds.data) {
    resources.set(`inbound ${id}`, {
      label: `Inbound ${id} (${attributes.reference})`,
      path: `/inbound/inbounds/${id}`,
      state: attributes.status,
    });
  }
  return { resources, stockMutations: new Map(mutations.data.map(({ id, attributes }) => [id, attributes.type])) };
}

export function changesBetween(before: Snapshot, after: Snapshot): { changes: Change[]; newStockMutations: Record<string, number> } {
  const changes: Change[] = [];
  for (const [key, now] of after.resources) {
    const then = before.resources.get(key);
    if (then?.state !== now.state) changes.push({ key, label: now.label, path: now.path, from: then?.state, to: now.state });
  }
  const newStockMutations: Record<string, number> = {};
  for (const [id, type] of after.stockMutations) {
    if (!before.stockMutations.has(id)) newStockMutations[type] = (newStockMutations[type] ?? 0) + 1;
  }
  return { changes, newStockMutations };
}
