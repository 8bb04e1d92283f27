// Shipments on the shipments module alone (no app, no API): an order starts a shipment that reserves its goods, steps
// walk it to SHIPPED taking the stock, and every move emits its events through the payload port it is handed.
import { afterAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { schema } from '../../platform/db/index.ts';
import type { Client } from '../clients/client.ts';
import { takeStock } from '../inventory/service.ts';
import { failShipment, findShipment, requireShipment, ShortageError, startOrder, stepShipment, type ShipmentRow } from './service.ts';
import { type ModuleTestBed, openModuleTestBed } from '../../../test/support/bed/modules.ts';
import { placedOrder, productOnShelf } from '../../../test/support/bed/orders.ts';

// Made once for the file, before its tests are collected: constants, no state at the module's top level.
const bed: ModuleTestBed = await openModuleTestBed();
const client: Client = await bed.newClient();
const shirt = (await productOnShelf(bed, client, 'SHIP-SHIRT', 5)).id;

const start = (orderId: number) => bed.db.transaction((tx) => startOrder(tx, bed.services.eventPayloads, client, orderId, new Date()));
const step = (id: number) =>
  bed.db.transaction(async (tx) => {
    const shipment = await requireShipment(tx, client, id, { lock: true });
    return stepShipment(tx, bed.services.eventPayloads, client, shipment, new Date(), { correctShortage: false });
  });
/** The types of the shipment's events, in alphabetical order (events of one move share a moment). */
const eventsOf = async (shipmentId: number) =>
  (
    await bed.db
      .select({ type: schema.events.type })
      .from(schema.events)
      .where(and(eq(schema.events.entity, 'shipment'), eq(schema.events.entityId, shipmentId)))
      .orderBy(asc(schema.events.id))
  )
    .map((e) => e.type)
    .sort();
const shelf = async () =>
  (await bed.db.select().from(schema.stock).where(eq(schema.stock.productId, shirt))).reduce((sum, row) => sum + row.quantity, 0);

afterAll(() => bed.close());

describe('shipments', () => {
  let shipment: ShipmentRow;
  let short: ShipmentRow;

  it('an order with stock starts a READY_TO_PICK shipment and emits created and readyToPick through the port', async () => {
    const { order } = await placedOrder(bed, client, [{ sku: 'SHIP-SHIRT', quantity: 2 }]);
    bed.payloads.length = 0;
    shipment = (await start(order.id))!;
    expect(shipment).toMatchObject({ orderId: order.id, status: 'READY_TO_PICK', warehouseCode: client.defaultWarehouse });
    expect(await eventsOf(shipment.id)).toEqual(['shipment.created.3', 'shipment.readyToPick.3']);
    expect(bed.payloads).toEqual([
      { entity: 'shipment', id: shipment.id },
      { entity: 'shipment', id: shipment.id },
    ]);
  });

  it('steps walk it to SHIPPED, taking its goods off the shelf', async () => {
    let status = shipment.status;
    for (let n = 0; n < 10 && status !== 'SHIPPED'; n++) {
      await step(shipment.id);
      status = (await requireShipment(bed.db, client, shipment.id)).status;
    }
    expect(status).toBe('SHIPPED');
    expect(await eventsOf(shipment.id)).toEqual([
      'shipment.created.3',
      'shipment.readyToPick.3',
      'shipment.readyToShip.3',
      'shipment.shipped.3',
    ]);
    expect(await shelf()).toBe(3);
  });

  it('an order the stock does not cover, partial delivery not allowed, starts nothing', async () => {
    const { order } = await placedOrder(bed, client, [{ sku: 'SHIP-SHIRT', quantity: 4 }]);
    expect(await start(order.id)).toBeUndefined();
  });

  it('goods gone from the shelf when it ships: a ShortageError, and nothing of the step is kept', async () => {
    const { order } = await placedOrder(bed, client, [{ sku: 'SHIP-SHIRT', quantity: 3 }]);
    short = (await start(order.id))!;
    await bed.db.transaction((tx) =>
      takeStock(
        tx,
        client.id,
        { productId: shirt, warehouseCode: client.defaultWarehouse, quantity: 3 },
        { type: 'CORRECTION' },
        new Date(),
      ),
    );
    let error: unknown;
    for (let n = 0; n < 10 && !error; n++)
      error = await step(short.id).then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ShortageError);
    expect((await requireShipment(bed.db, client, short.id)).status).toBe('READY_TO_SHIP');
  });

  it('failShipment puts a shipment in ERROR, with no event (ERROR emits none)', async () => {
    const before = await eventsOf(short.id);
    await bed.db.transaction(async (tx) => {
      const row = await requireShipment(tx, client, short.id, { lock: true });
      await failShipment(tx, bed.services.eventPayloads, client.id, row, new Date());
    });
    expect((await requireShipment(bed.db, client, short.id)).status).toBe('ERROR');
    expect(await eventsOf(short.id)).toEqual(before);
  });

  it("another client's shipment is not found", async () => {
    const other = await bed.newClient();
    expect(await findShipment(bed.db, other, shipment.id)).toBeUndefined();
  });
});
