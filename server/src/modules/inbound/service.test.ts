// Inbound on the inbound module alone (no app, no API): a packing slip is announced all or nothing, a receipt walks an
// inbound to CHECKED with its stock and events, and a CHECKED inbound completes 2 hours later on the client's clock.
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Client } from '../clients/client.ts';
import { createProduct } from '../products/service.ts';
import {
  completeDueInbounds,
  createPackingSlip,
  findInbound,
  findPackingSlip,
  itemsOfPackingSlips,
  receivePackingSlip,
} from './service.ts';
import { type ModuleTestBed, openModuleTestBed } from '../../../test/support/bed/modules.ts';

// Made once for the file, before its tests are collected: constants, no state at the module's top level.
const bed: ModuleTestBed = await openModuleTestBed();
const client: Client = await bed.newClient();
const socks = await createProduct(bed.db, client.id, { sku: 'INB-SOCKS', name: 'Socks' });
const hats = await createProduct(bed.db, client.id, { sku: 'INB-HATS', name: 'Hats' });

const payloads = bed.services.eventPayloads;
/** The same client three hours on: its clock is all a service reads of it besides its id. */
const later: Client = { ...client, clockOffsetSeconds: client.clockOffsetSeconds + 3 * 3600 };
/** The types of the inbound's events, in alphabetical order (events of one move share a moment). */
const eventsOf = async (inboundId: number) =>
  (
    await bed.db
      .select({ type: schema.events.type })
      .from(schema.events)
      .where(and(eq(schema.events.entity, 'inbound'), eq(schema.events.entityId, inboundId)))
  )
    .map((e) => e.type)
    .sort();
const stockOf = async (productId: number) =>
  (await bed.db.select().from(schema.stock).where(eq(schema.stock.productId, productId))).map((r) => [r.locationCode, r.quantity]);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof DomainError ? error.items.map((p) => [p.code, p.path]) : error),
  );

afterAll(() => bed.close());

describe('inbound', () => {
  it('createPackingSlip sums a repeated sku into one item, and refuses every problem at once, writing nothing', async () => {
    const id = await createPackingSlip(bed.db, client, {
      expectedIn: client.defaultWarehouse,
      reference: 'INB-ONE',
      items: [
        { sku: 'INB-SOCKS', quantity: 2 },
        { sku: 'INB-HATS', quantity: 1 },
        { sku: 'INB-SOCKS', quantity: 3 },
      ],
    });
    expect((await itemsOfPackingSlips(bed.db, [id])).map((i) => [i.sku, i.quantity, i.received])).toEqual([
      ['INB-SOCKS', 5, 0],
      ['INB-HATS', 1, 0],
    ]);
    const refused = await refusal(
      createPackingSlip(bed.db, client, {
        expectedIn: client.defaultWarehouse,
        reference: 'INB-ONE',
        items: [
          { sku: 'INB-HATS', quantity: 1 },
          { sku: 'INB-NONE', quantity: 1 },
        ],
      }),
    );
    expect(refused).toEqual([
      ['404-1', ['items', 1, 'sku']],
      ['409', ['reference']],
    ]);
    const slips = await bed.db.select().from(schema.inboundPackingSlips).where(eq(schema.inboundPackingSlips.clientId, client.id));
    expect(slips.map((s) => s.reference)).toEqual(['INB-ONE']);
  });

  it('receivePackingSlip of fewer goods walks the inbound to CHECKED, books the stock, and leaves the slip IN_PROGRESS', async () => {
    const slipId = await createPackingSlip(bed.db, client, {
      expectedIn: client.defaultWarehouse,
      reference: 'INB-PART',
      items: [{ sku: 'INB-SOCKS', quantity: 4 }],
    });
    const inboundId = await receivePackingSlip(bed.db, payloads, client, slipId, [{ sku: 'INB-SOCKS', quantity: 3 }]);
    expect(await findInbound(bed.db, payloads, client, inboundId)).toMatchObject({ status: 'CHECKED', inboundPackingSlipId: slipId });
    expect(await eventsOf(inboundId)).toEqual(['inbound.checked', 'inbound.checking', 'inbound.checkingUpdate', 'inbound.processing']);
    expect(await findPackingSlip(bed.db, payloads, client, slipId)).toMatchObject({ status: 'IN_PROGRESS' });
    expect((await itemsOfPackingSlips(bed.db, [slipId])).map((i) => i.received)).toEqual([3]);
    expect(await stockOf(socks.id)).toEqual([[`${client.defaultWarehouse}-PIC-${String(socks.id).padStart(6, '0')}`, 3]]);
    const [measured] = await bed.db.select().from(schema.products).where(eq(schema.products.id, socks.id));
    expect(measured.weight).toBeGreaterThan(0);

    const again = await refusal(receivePackingSlip(bed.db, payloads, client, slipId, [{ sku: 'INB-NONE', quantity: 1 }]));
    expect(again).toEqual([['404-1', ['items', 0, 'sku']]]);
  });

  it('completeDueInbounds completes a CHECKED inbound 2 hours on, and its fully received slip with it', async () => {
    const slipId = await createPackingSlip(bed.db, client, {
      expectedIn: client.defaultWarehouse,
      reference: 'INB-FULL',
      items: [{ sku: 'INB-HATS', quantity: 2 }],
    });
    const inboundId = await receivePackingSlip(bed.db, payloads, client, slipId);
    expect(await findPackingSlip(bed.db, payloads, client, slipId)).toMatchObject({ status: 'CHECKED' });
    await completeDueInbounds(bed.db, payloads, client);
    expect(await findInbound(bed.db, payloads, client, inboundId)).toMatchObject({ status: 'CHECKED' });
    expect(await eventsOf(inboundId)).toEqual(['inbound.checked', 'inbound.checking', 'inbound.processing']);

    await completeDueInbounds(bed.db, payloads, later);
    const inbound = await findInbound(bed.db, payloads, client, inboundId);
    expect(inbound).toMatchObject({ status: 'COMPLETED' });
    expect(inbound!.completedOn).toEqual(inbound!.completesOn);
    expect(await eventsOf(inboundId)).toEqual(['inbound.checked', 'inbound.checking', 'inbound.processed', 'inbound.processing']);
    expect(await findPackingSlip(bed.db, payloads, client, slipId)).toMatchObject({
      status: 'COMPLETED',
      completedOn: inbound!.completedOn,
    });
    expect(await stockOf(hats.id)).toEqual([[`${client.defaultWarehouse}-PIC-${String(hats.id).padStart(6, '0')}`, 2]]);
  });
});
