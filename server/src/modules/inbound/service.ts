// Inbound: packing slips announcing goods (v2 purchase orders are the same rows), their receipt as inbounds with stock
// and INBOUND mutations, and the completion of a CHECKED inbound 2 hours later on the client's clock. The SQL is in
// repository.ts; this file keeps the rules: what a slip may hold, what a receipt brings, the lifecycles, retention.
import { limits, warehouses, type WarehouseCode } from '@shopapi/contract';
import { type Db, isUniqueViolation } from '../../platform/db/index.ts';
import type { Metadata } from '../../platform/db/schema/orders.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { daysBefore, startOfDay } from '../../platform/time.ts';
import { lockClientWarehouse, pickLocation, putStock } from '../inventory/service.ts';
import { emitInboundEvent, type EventPayloads } from '../webhooks/payloads.ts';
import { markerIn } from '../shipments/road.ts';
import {
  inboundCheckingUpdateEvent,
  inboundLifecycle,
  packingSlipLifecycle,
  type InboundStatus,
  type PackingSlipStatus,
} from './lifecycle.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';
import {
  addToReceived,
  completeDueCheckedInbounds,
  completeFinishedPackingSlips,
  findInbound as findInboundRow,
  findPackingSlip as findVisiblePackingSlip,
  findPackingSlipItem as findVisiblePackingSlipItem,
  firstCompletionAfter,
  firstExpectedDayAfter,
  insertInbound,
  insertInboundItem,
  insertPackingSlip,
  insertPackingSlipItems,
  itemsOfPackingSlip,
  listInbounds as listInboundRows,
  listPackingSlips as listVisiblePackingSlips,
  lockVisiblePackingSlip,
  packingSlipsWithReference,
  productsWithIds,
  productsWithSkus,
  receivedOfPackingSlip,
  setProductMeasurements,
  updateInbound,
  updatePackingSlip,
  type InboundRow,
  type PackingSlipFilters,
  type PackingSlipItemRow,
  type PackingSlipRow,
} from './repository.ts';

export {
  arrivedPackingSlips,
  findInboundItem,
  itemsOfInbounds,
  itemsOfPackingSlips,
  latestInbounds,
  type InboundItemRow,
  type InboundRow,
  type PackingSlipFilters,
  type PackingSlipItemRow,
  type PackingSlipRow,
} from './repository.ts';

// ---- packing slips

export interface NewPackingSlipItem {
  sku: string;
  quantity: number;
  expectedDate?: string | null;
}

export interface NewPackingSlip {
  expectedIn: string;
  expectedOn?: string | null;
  reference: string;
  comments?: string | null;
  metadata?: Metadata | null;
  items: NewPackingSlipItem[];
}

const referenceConflict = (reference: string) =>
  domainError('409', `A packing slip with reference "${reference}" already exists.`, { path: ['reference'] });

/**
 * Announces goods. Every problem of the request comes back together, each at its path into the input (['items', 0, 'sku']);
 * nothing is written unless all is well.
 */
export async function createPackingSlip(db: Db, client: Client, input: NewPackingSlip): Promise<number> {
  const problems = new ProblemCollector();
  if (!warehouses[input.expectedIn as WarehouseCode]?.acceptsGoods) {
    problems.add('400', `expectedIn "${input.expectedIn}" is not a warehouse that accepts goods.`, {
      path: ['expectedIn'],
    });
  }
  if (!input.items.length) problems.add('400', 'A packing slip needs at least one item.', { path: ['items'] });
  // A repeated sku is one item with the summed quantity.
  const merged = new Map<string, NewPackingSlipItem>();
  const firstIndex = new Map<string, number>();
  for (const [index, item] of input.items.entries()) {
    const seen = merged.get(item.sku);
    merged.set(item.sku, seen ? { ...seen, quantity: seen.quantity + item.quantity } : item);
    if (!seen) firstIndex.set(item.sku, index);
  }
  const skus = [...merged.keys()];
  const [productRows, existing] = await Promise.all([
    skus.length ? productsWithSkus(db, client.id, skus) : [],
    packingSlipsWithReference(db, client.id, input.reference),
  ]);
  const productBySku = new Map(productRows.map((p) => [p.sku, p.id]));
  for (const item of merged.values()) {
    if (!productBySku.has(item.sku))
      problems.add('404-1', `SKU "${item.sku}" not found.`, { path: ['items', firstIndex.get(item.sku)!, 'sku'] });
  }
  if (existing.length) problems.items.push(referenceConflict(input.reference).items[0]);
  problems.throwIfAny();

  try {
    return await db.transaction(async (tx) => {
      const slipId = await insertPackingSlip(tx, {
        clientId: client.id,
        reference: input.reference,
        expectedIn: input.expectedIn,
        expectedOn: input.expectedOn ?? null,
        comments: input.comments ?? null,
        metadata: input.metadata ?? {},
        createdOn: clientNow(client),
      });
      await insertPackingSlipItems(
        tx,
        [...merged.values()].map((item) => ({
          clientId: client.id,
          inboundPackingSlipId: slipId,
          productId: productBySku.get(item.sku)!,
          sku: item.sku,
          quantity: item.quantity,
          expectedDate: item.expectedDate ?? null,
        })),
      );
      return slipId;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'inbound_packing_slips_client_reference_key')) throw referenceConflict(input.reference);
    throw error;
  }
}

/**
 * Packing slips older than the retention window are not returned. "Only visible to the warehouse it is expected in"
 * reads here as: a packing slip belongs to its expectedIn warehouse, which alone receives it; the client sees all of theirs.
 */
const slipsVisibleFrom = (client: Client) => daysBefore(clientNow(client), limits.packingSlipRetentionDays);

export async function listPackingSlips(
  db: Db,
  payloads: EventPayloads,
  client: Client,
  filters: PackingSlipFilters,
  page: Page,
): Promise<PackingSlipRow[]> {
  await completeDueInbounds(db, payloads, client);
  return listVisiblePackingSlips(db, client.id, slipsVisibleFrom(client), filters, page);
}

export async function findPackingSlip(db: Db, payloads: EventPayloads, client: Client, id: number): Promise<PackingSlipRow | undefined> {
  await completeDueInbounds(db, payloads, client);
  return findVisiblePackingSlip(db, client.id, slipsVisibleFrom(client), id);
}

/** One item of a packing slip the client can read (the slip's retention applies to its items). */
export async function findPackingSlipItem(db: Db, client: Client, id: number): Promise<PackingSlipItemRow | undefined> {
  return findVisiblePackingSlipItem(db, client.id, slipsVisibleFrom(client), id);
}

// ---- inbounds

export async function listInbounds(
  db: Db,
  payloads: EventPayloads,
  client: Client,
  filters: { statuses?: string[] },
  page: Page,
): Promise<InboundRow[]> {
  await completeDueInbounds(db, payloads, client);
  return listInboundRows(db, client.id, filters, page);
}

export async function findInbound(db: Db, payloads: EventPayloads, client: Client, id: number): Promise<InboundRow | undefined> {
  await completeDueInbounds(db, payloads, client);
  return findInboundRow(db, client.id, id);
}

/**
 * Completes the CHECKED inbounds whose 2-hour window has passed on the client's clock, and the CHECKED packing slips
 * whose inbounds are then all complete. Reads call it first, so completion needs no background job; the simulated
 * warehouse calls it from its clock.
 */
export async function completeDueInbounds(db: Db, payloads: EventPayloads, client: Client): Promise<void> {
  const now = clientNow(client);
  await db.transaction(async (tx) => {
    const done = await completeDueCheckedInbounds(tx, client.id, now);
    for (const inbound of done) {
      // The update above chose CHECKED inbounds only: the move is allowed, and it gives the events to emit.
      for (const event of inboundLifecycle.move('CHECKED', 'COMPLETED', `Inbound ${inbound.id}`))
        await emitInboundEvent(tx, payloads, client.id, inbound.id, event, inbound.completedOn!);
    }
    const slipIds = [...new Set(done.map((d) => d.slipId).filter((id): id is number => id !== null))];
    if (!slipIds.length) return;
    await completeFinishedPackingSlips(tx, client.id, slipIds);
  });
}

// ---- receipt

export interface ReceivedQuantity {
  sku: string;
  quantity: number;
}

/** Timestamps an inbound gets on entering each status. */
function inboundStatusFields(status: InboundStatus, now: Date): Partial<InboundRow> {
  if (status === 'CHECKING') return { checkingOn: now };
  if (status === 'CHECKED')
    return { checkedOn: now, completesOn: new Date(now.getTime() + limits.checkedInboundAutoCompleteHours * 3_600_000) };
  if (status === 'COMPLETED') return { completedOn: now };
  return {};
}

/** The sandbox "measures" products at first receipt: plausible values derived from the id, so results are repeatable. */
const measured = (id: number) => ({
  weight: 50 + ((id * 7919) % 1950),
  length: 50 + ((id * 31) % 450),
  width: 30 + ((id * 17) % 300),
  height: 10 + ((id * 13) % 200),
});

const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The first moment after `after` at which something of the client's inbound falls due on its own: a CHECKED inbound
 * completes, or the day of an EXPECTED packing slip begins (its goods arrive). The warehouse's catch-up stops there, so
 * what happens then happens in clock order with the shipments' moves around it. Undefined when nothing is due.
 */
export async function nextInboundMoment(db: Db, clientId: number, after: Date): Promise<Date | undefined> {
  const completion = await firstCompletionAfter(db, clientId, after);
  const arrivalDay = await firstExpectedDayAfter(db, clientId, after.toISOString().slice(0, 10));
  const moments = [completion, arrivalDay ? startOfDay(arrivalDay) : null].filter((d): d is Date => d instanceof Date);
  return moments.length ? new Date(Math.min(...moments.map((d) => d.getTime()))) : undefined;
}

/**
 * Receives goods of a packing slip in its warehouse: an inbound walks PROCESSING → CHECKING → CHECKED with its items,
 * stock lands on pick locations with INBOUND mutations, the slip's received quantities and status follow, and products
 * without weight and dimensions get them. `requested` (per sku; repeated skus summed) defaults to everything still
 * expected; it may hold fewer, more, or skus not on the slip (they must be the client's products).
 */
export async function receivePackingSlip(
  db: Db,
  payloads: EventPayloads,
  client: Client,
  slipId: number,
  requested?: ReceivedQuantity[],
): Promise<number> {
  await completeDueInbounds(db, payloads, client);
  return db.transaction(async (tx) => {
    // Before the slip's row: the lock order of every transaction that books stock (see lockClientWarehouse).
    await lockClientWarehouse(tx, client.id);
    const slip = await lockVisiblePackingSlip(tx, client.id, slipsVisibleFrom(client), slipId);
    if (!slip) throw domainError('404', `Inbound packing slip ${slipId} not found.`);
    if (slip.status !== 'EXPECTED' && slip.status !== 'IN_PROGRESS')
      throw domainError('409', `Inbound packing slip ${slipId} is ${slip.status}: its goods have been received.`);
    const slipItems = await itemsOfPackingSlip(tx, slip.id);

    let lines: { productId: number; sku: string; quantity: number; slipItem?: PackingSlipItemRow }[];
    if (!requested) {
      // The inbound-short and inbound-over scenarios: the first receipt brings one unit less, or more, of each item.
      const road = slip.status === 'EXPECTED' ? markerIn(slip.metadata, 'packingSlip')?.scenario?.name : undefined;
      const difference = road === 'inbound-short' ? -1 : road === 'inbound-over' ? 1 : 0;
      lines = slipItems.map((i) => ({
        productId: i.productId,
        sku: i.sku,
        quantity: Math.max(0, i.quantity - i.received + difference),
        slipItem: i,
      }));
    } else {
      const wanted = new Map<string, { quantity: number; index: number }>();
      for (const [index, { sku, quantity }] of requested.entries()) {
        wanted.set(sku, { quantity: (wanted.get(sku)?.quantity ?? 0) + quantity, index: wanted.get(sku)?.index ?? index });
      }
      const notOnSlip = [...wanted.keys()].filter((sku) => !slipItems.some((i) => i.sku === sku));
      const extra = notOnSlip.length ? await productsWithSkus(tx, client.id, notOnSlip) : [];
      const problems = new ProblemCollector();
      for (const sku of notOnSlip) {
        if (!extra.some((p) => p.sku === sku))
          problems.add('404-1', `SKU "${sku}" not found.`, { path: ['items', wanted.get(sku)!.index, 'sku'] });
      }
      problems.throwIfAny();
      lines = [...wanted].map(([sku, { quantity }]) => {
        const slipItem = slipItems.find((i) => i.sku === sku);
        return { productId: slipItem?.productId ?? extra.find((p) => p.sku === sku)!.id, sku, quantity, slipItem };
      });
    }
    lines = lines.filter((l) => l.quantity > 0);
    if (!lines.length) throw domainError('400', `Nothing to receive for inbound packing slip ${slipId}.`, { path: ['items'] });

    const now = clientNow(client);
    const productRows = await productsWithIds(
      tx,
      client.id,
      lines.map((l) => l.productId),
    );
    const inbound = await insertInbound(tx, {
      clientId: client.id,
      inboundPackingSlipId: slip.id,
      reference: slip.reference,
      status: 'PROCESSING',
      receivedIn: slip.expectedIn,
      createdOn: now,
    });
    for (const line of lines) {
      const product = productRows.find((p) => p.id === line.productId)!;
      const lotNumber = product.hasLotNumber ? `LOT-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${inbound.id}` : null;
      // Perishable goods arrive with a comfortable shelf life beyond the product's warning days.
      const expirationDate = product.hasExpirationDate ? addDays(now, Math.max(365, (product.expirationDateWarning ?? 0) + 30)) : null;
      const itemId = await insertInboundItem(tx, {
        clientId: client.id,
        inboundId: inbound.id,
        inboundPackingSlipItemId: line.slipItem?.id ?? null,
        productId: product.id,
        sku: line.sku,
        quantity: line.quantity,
        lotNumber,
        expirationDate,
      });
      await putStock(
        tx,
        client.id,
        pickLocation(slip.expectedIn, product.id),
        { productId: product.id, sku: line.sku, quantity: line.quantity, lotNumber, expirationDate, inboundItemId: itemId },
        { type: 'INBOUND', inboundItemId: itemId },
        now,
      );
      if (line.slipItem) await addToReceived(tx, line.slipItem.id, line.quantity);
      if (product.weight === null || product.length === null || product.width === null || product.height === null) {
        const m = measured(product.id);
        await setProductMeasurements(tx, product.id, {
          weight: product.weight ?? m.weight,
          length: product.length ?? m.length,
          width: product.width ?? m.width,
          height: product.height ?? m.height,
        });
      }
    }

    // The sandbox counts and matches at once: the inbound walks to CHECKED now, which starts its 2-hour window.
    // Goods that differ from the slip (other quantities, skus not on it) wait on a difference location until counted:
    // that location's check is the inbound.checkingUpdate between checking and checked.
    const differs = lines.some((l) => !l.slipItem || l.quantity !== l.slipItem.quantity - l.slipItem.received);
    for (const event of inboundLifecycle.start('PROCESSING')) await emitInboundEvent(tx, payloads, client.id, inbound.id, event, now);
    for (const { to: status, events } of inboundLifecycle.walk('PROCESSING', 'CHECKED')) {
      if (status === 'CHECKED' && differs) await emitInboundEvent(tx, payloads, client.id, inbound.id, inboundCheckingUpdateEvent, now);
      await updateInbound(tx, inbound.id, { ...inboundStatusFields(status, now), status });
      for (const event of events) await emitInboundEvent(tx, payloads, client.id, inbound.id, event, now);
    }

    const after = await receivedOfPackingSlip(tx, slip.id);
    const target: PackingSlipStatus = after.every((i) => i.received >= i.quantity) ? 'CHECKED' : 'IN_PROGRESS';
    // Walking the table refuses a status the lifecycle does not allow from here.
    if (target !== slip.status) packingSlipLifecycle.walk(slip.status as PackingSlipStatus, target);
    await updatePackingSlip(tx, slip.id, { status: target, receivedOn: slip.receivedOn ?? now });
    return inbound.id;
  });
}
