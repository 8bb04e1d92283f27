// v2 purchase orders are inbound packing slips: adding goes through createPackingSlip, and what an edit or delete may
// change follows the order's colour (v2 spec section 4), derived from the slip's status and received quantities.
import type { Db } from '../../platform/db/index.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { createPackingSlip } from './service.ts';
import { packingSlipLifecycle, type PackingSlipStatus } from './lifecycle.ts';
import { DomainError } from '../../platform/errors.ts';
import {
  currentItemsOfPackingSlip,
  deletePackingSlip,
  deletePackingSlipItem,
  insertPackingSlipItems,
  lockItemsOfPackingSlip,
  lockPackingSlip,
  packingSlipsWithReference,
  productsWithSkus,
  updatePackingSlip,
  updatePackingSlipItem,
  type NewPackingSlipRow,
  type PackingSlipItemRow,
} from './repository.ts';

export type PurchaseOrderColour = 'red' | 'yellow' | 'green';

/**
 * The colour is never stored: red while nothing is received, yellow once some goods are received, green once the
 * warehouse has everything (the slip is CHECKING or later: fully received, checked or completed).
 */
export function purchaseOrderColour(status: PackingSlipStatus, items: Pick<PackingSlipItemRow, 'received'>[]): PurchaseOrderColour {
  if (status !== 'EXPECTED' && status !== 'IN_PROGRESS') return 'green';
  return items.some((item) => item.received > 0) ? 'yellow' : 'red';
}

interface ColourRules {
  /** reference and comment. */
  editTexts: boolean;
  editExpectedDate: boolean;
  addItems: boolean;
  /** How low an item quantity may be set. */
  itemQuantity: 'any' | 'atLeastReceived' | 'none';
  /** What deleting an item (or setting it to 0) does. */
  deleteItem: 'delete' | 'downToReceived' | 'none';
  /** What deleting the whole order does. */
  deleteOrder: 'delete' | 'completeAtReceived' | 'none';
}

/** What each colour allows (v2 spec section 4), as data: the edit and delete calls only read it. */
export const purchaseOrderColourRules: Record<PurchaseOrderColour, ColourRules> = {
  red: { editTexts: true, editExpectedDate: true, addItems: true, itemQuantity: 'any', deleteItem: 'delete', deleteOrder: 'delete' },
  yellow: {
    editTexts: true,
    editExpectedDate: false,
    addItems: true,
    itemQuantity: 'atLeastReceived',
    deleteItem: 'downToReceived',
    deleteOrder: 'completeAtReceived',
  },
  green: { editTexts: false, editExpectedDate: false, addItems: false, itemQuantity: 'none', deleteItem: 'none', deleteOrder: 'none' },
};

// ---- the three failures (v2 spec section 8); every one is thrown before anything is written

/** Why a purchase order call is refused, in facts: the v2 API words it (api/v2/wording.ts). */
export type PurchaseOrderRefusalReason =
  | { kind: 'notFound' | 'completed'; purchaseOrderId: number }
  | { kind: 'invalid'; problems: string[] }
  | { kind: 'skusNotFound'; purchaseOrderId: number | null; skus: string[] };

export class PurchaseOrderRefusal extends DomainError {
  constructor(readonly reason: PurchaseOrderRefusalReason) {
    super({ code: '400', detail: `The purchase order is refused: ${reason.kind}.` });
  }
}

const failed = (purchaseOrderId: number, kind: 'notFound' | 'completed') => new PurchaseOrderRefusal({ kind, purchaseOrderId });
const invalid = (problems: string[]) => new PurchaseOrderRefusal({ kind: 'invalid', problems });
const skusNotFound = (purchaseOrderId: number | null, skus: string[]) =>
  new PurchaseOrderRefusal({ kind: 'skusNotFound', purchaseOrderId, skus: [...new Set(skus)] });

/** A v2 expected date is a date-time; the packing slip keeps the day as written. */
const dayOf = (dateTime: string | null | undefined) => (dateTime ? dateTime.slice(0, 10) : null);

export interface PurchaseOrderItemInput {
  sku: string;
  quantity: number;
  expectedDate?: string | null;
}

export interface NewPurchaseOrder {
  reference: string;
  comment?: string | null;
  expectedDate?: string | null;
  /** The warehouse the goods go to; the client's default when absent. */
  expectedIn?: string;
  items: PurchaseOrderItemInput[];
}

export async function addPurchaseOrder(db: Db, client: Client, input: NewPurchaseOrder): Promise<number> {
  try {
    return await createPackingSlip(db, client, {
      expectedIn: input.expectedIn ?? client.defaultWarehouse,
      expectedOn: dayOf(input.expectedDate),
      reference: input.reference,
      comments: input.comment ?? null,
      items: input.items.map((item) => ({
        sku: item.sku,
        quantity: item.quantity,
        expectedDate: dayOf(item.expectedDate),
      })),
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The packing slip's own checks, told the v2 way: unknown skus as item errors, anything else as a field problem.
    const others = error.items.filter((item) => item.code !== '404-1');
    if (others.length) throw invalid(others.map((item) => item.detail));
    throw skusNotFound(
      null,
      // An unknown sku's path is ['items', index, 'sku']: the index is the purchase order item's.
      error.items.map((item) => input.items[Number(item.path?.[1])]?.sku ?? item.detail),
    );
  }
}

/** The order and its items, locked for the change; another client's order is not found, like a missing one. */
async function lockOrder(tx: Db, clientId: number, purchaseOrderId: number) {
  const slip = await lockPackingSlip(tx, clientId, purchaseOrderId);
  if (!slip) throw failed(purchaseOrderId, 'notFound');
  const items = await lockItemsOfPackingSlip(tx, slip.id);
  const colour = purchaseOrderColour(slip.status as PackingSlipStatus, items);
  if (colour === 'green') throw failed(purchaseOrderId, 'completed');
  return { slip, items, rules: purchaseOrderColourRules[colour] };
}

/** Deletes an item, or (yellow) keeps what was received of it. */
async function removeItem(tx: Db, rules: ColourRules, item: PackingSlipItemRow) {
  if (rules.deleteItem === 'downToReceived' && item.received > 0) {
    await updatePackingSlipItem(tx, item.id, { quantity: item.received });
  } else {
    await deletePackingSlipItem(tx, item.id);
  }
}

/** Walks the slip along its lifecycle to `target`, the way a receipt does, and stamps completion. */
async function moveTo(tx: Db, client: Client, slip: { id: number; status: string }, target: PackingSlipStatus) {
  if (slip.status === target) return;
  packingSlipLifecycle.walk(slip.status as PackingSlipStatus, target);
  await updatePackingSlip(tx, slip.id, { status: target, ...(target === 'COMPLETED' ? { completedOn: clientNow(client) } : {}) });
}

/** A partly received order whose remaining items are all received is fully matched: it goes to CHECKED, as after a receipt. */
async function settle(tx: Db, client: Client, slip: { id: number; status: string }) {
  if (slip.status !== 'IN_PROGRESS') return;
  const items = await currentItemsOfPackingSlip(tx, slip.id);
  if (items.length && items.every((item) => item.received >= item.quantity)) await moveTo(tx, client, slip, 'CHECKED');
}

export interface PurchaseOrderEdit {
  purchaseOrderId: number;
  reference?: string | null;
  comment?: string | null;
  expectedDate?: string | null;
  items?: PurchaseOrderItemInput[] | null;
}

export async function editPurchaseOrder(db: Db, client: Client, input: PurchaseOrderEdit): Promise<number> {
  return db.transaction(async (tx) => {
    const { slip, items, rules } = await lockOrder(tx, client.id, input.purchaseOrderId);
    const problems: string[] = [];
    const changes: Partial<NewPackingSlipRow> = {};
    if (input.reference && input.reference !== slip.reference) {
      const [taken] = await packingSlipsWithReference(tx, client.id, input.reference, slip.id);
      if (taken) problems.push(`Reference '${input.reference}' is already used by purchase order ${taken.id}.`);
      changes.reference = input.reference;
    }
    if (input.comment !== undefined) changes.comments = input.comment;
    if (input.expectedDate !== undefined && dayOf(input.expectedDate) !== slip.expectedOn) {
      if (!rules.editExpectedDate) problems.push('ExpectedDate cannot change once goods of the purchase order have been received.');
      changes.expectedOn = dayOf(input.expectedDate);
    }

    // The last line of a repeated sku counts.
    const lines = new Map((input.items ?? []).map((line) => [line.sku, line]));
    const newSkus = [...lines.values()]
      .filter((line) => line.quantity > 0 && !items.some((item) => item.sku === line.sku))
      .map((line) => line.sku);
    const found = newSkus.length ? await productsWithSkus(tx, client.id, newSkus) : [];
    for (const line of lines.values()) {
      const item = items.find((i) => i.sku === line.sku);
      if (item && line.quantity > 0 && rules.itemQuantity === 'atLeastReceived' && line.quantity < item.received) {
        problems.push(`The quantity of ${line.sku} cannot go below the ${item.received} received.`);
      }
    }
    if (problems.length) throw invalid(problems);
    const unknown = newSkus.filter((sku) => !found.some((p) => p.sku === sku));
    if (unknown.length) throw skusNotFound(slip.id, unknown);

    if (Object.keys(changes).length) await updatePackingSlip(tx, slip.id, changes);
    for (const line of lines.values()) {
      const item = items.find((i) => i.sku === line.sku);
      if (!item) {
        // A quantity of 0 for a sku not on the order deletes nothing.
        if (line.quantity > 0) {
          await insertPackingSlipItems(tx, {
            clientId: client.id,
            inboundPackingSlipId: slip.id,
            productId: found.find((p) => p.sku === line.sku)!.id,
            sku: line.sku,
            quantity: line.quantity,
            expectedDate: dayOf(line.expectedDate),
          });
        }
      } else if (line.quantity === 0) {
        await removeItem(tx, rules, item);
      } else {
        await updatePackingSlipItem(tx, item.id, {
          quantity: line.quantity,
          ...(line.expectedDate !== undefined ? { expectedDate: dayOf(line.expectedDate) } : {}),
        });
      }
    }
    await settle(tx, client, slip);
    return slip.id;
  });
}

export async function deletePurchaseOrder(
  db: Db,
  client: Client,
  input: { purchaseOrderId: number; skus?: string[] | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const { slip, items, rules } = await lockOrder(tx, client.id, input.purchaseOrderId);
    if (input.skus?.length) {
      const missing = input.skus.filter((sku) => !items.some((item) => item.sku === sku));
      if (missing.length) throw skusNotFound(slip.id, missing);
      for (const item of items.filter((i) => input.skus!.includes(i.sku))) await removeItem(tx, rules, item);
      await settle(tx, client, slip);
      return slip.id;
    }
    if (rules.deleteOrder === 'delete') {
      await deletePackingSlip(tx, slip.id);
      return slip.id;
    }
    // Yellow: the order shrinks to the goods booked in and is complete.
    for (const item of items) await removeItem(tx, rules, item);
    await moveTo(tx, client, slip, 'COMPLETED');
    return slip.id;
  });
}
