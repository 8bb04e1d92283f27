// Stock on the inventory module alone (no app, no API): bookings join equal goods and each books a mutation, goods go
// out first expiring first, and the levels sum what is on the shelf, going out, ordered and expected per warehouse.
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../platform/db/index.ts';
import type { Client } from '../clients/client.ts';
import { createProduct } from '../products/service.ts';
import { bookInAndOut, type Goods, pickLocation, putStock, stockLevelsOf, takeStock } from './service.ts';
import { type ModuleTestBed, openModuleTestBed } from '../../../test/support/bed/modules.ts';
import { placedOrder } from '../../../test/support/bed/orders.ts';

// Made once for the file, before its tests are collected: constants, no state at the module's top level.
const bed: ModuleTestBed = await openModuleTestBed();
const client: Client = await bed.newClient();

const correction = { type: 'CORRECTION', correctionCode: 'ADJUSTMENT' } as const;
const put = (goods: Goods, warehouse = client.defaultWarehouse) =>
  bed.db.transaction((tx) => putStock(tx, client.id, pickLocation(warehouse, goods.productId), goods, correction, new Date()));
const take = (productId: number, quantity: number) =>
  bed.db.transaction((tx) =>
    takeStock(tx, client.id, { productId, warehouseCode: client.defaultWarehouse, quantity }, correction, new Date()),
  );
const rowsOf = (productId: number) => bed.db.select().from(schema.stock).where(eq(schema.stock.productId, productId));
const mutationsOf = (productId: number) =>
  bed.db
    .select()
    .from(schema.stockMutations)
    .where(and(eq(schema.stockMutations.clientId, client.id), eq(schema.stockMutations.productId, productId)));

afterAll(() => bed.close());

describe('inventory', () => {
  it('putStock joins equal goods on one place into one row, and books one mutation for each booking', async () => {
    const { id } = await createProduct(bed.db, client.id, { sku: 'INV-JOIN', name: 'Joined' });
    await put({ productId: id, sku: 'INV-JOIN', quantity: 3 });
    await put({ productId: id, sku: 'INV-JOIN', quantity: 2 });
    await put({ productId: id, sku: 'INV-JOIN', quantity: 1, lotNumber: 'LOT-B' });
    expect((await rowsOf(id)).map((r) => [r.quantity, r.lotNumber]).sort()).toEqual([
      [1, 'LOT-B'],
      [5, null],
    ]);
    expect((await mutationsOf(id)).map((m) => m.quantity).sort()).toEqual([1, 2, 3]);
  });

  it('takeStock takes the first expiring goods first, and says how much was missing', async () => {
    const { id } = await createProduct(bed.db, client.id, { sku: 'INV-FEFO', name: 'Expiring' });
    await put({ productId: id, sku: 'INV-FEFO', quantity: 2, lotNumber: 'LATE', expirationDate: '2031-01-01' });
    await put({ productId: id, sku: 'INV-FEFO', quantity: 2, lotNumber: 'SOON', expirationDate: '2030-01-01' });
    const first = await take(id, 3);
    expect(first).toEqual({
      taken: [
        { quantity: 2, lotNumber: 'SOON', expirationDate: '2030-01-01' },
        { quantity: 1, lotNumber: 'LATE', expirationDate: '2031-01-01' },
      ],
      missing: 0,
    });
    expect(await take(id, 4)).toEqual({ taken: [{ quantity: 1, lotNumber: 'LATE', expirationDate: '2031-01-01' }], missing: 3 });
    expect(await rowsOf(id)).toEqual([]);
  });

  it('bookInAndOut leaves what putStock then takeStock of goods the warehouse lacks leave: two mutations, no stock row', async () => {
    const now = new Date();
    const shipping = { type: 'SHIPMENT' } as const;
    const bookedIn = { ...correction, remarks: 'Booked in to ship.' };
    const byPutAndTake = await createProduct(bed.db, client.id, { sku: 'INV-PUT-TAKE', name: 'Put and taken' });
    const byBookInAndOut = await createProduct(bed.db, client.id, { sku: 'INV-IN-OUT', name: 'Booked in and out' });
    const goods = (productId: number, sku: string) => ({ productId, sku, quantity: 3 });
    const place = (productId: number) => pickLocation(client.defaultWarehouse, productId);
    const taken = await bed.db.transaction(async (tx) => {
      await putStock(tx, client.id, place(byPutAndTake.id), goods(byPutAndTake.id, 'INV-PUT-TAKE'), bookedIn, now);
      const want = { productId: byPutAndTake.id, warehouseCode: client.defaultWarehouse, quantity: 3 };
      return (await takeStock(tx, client.id, want, shipping, now)).taken;
    });
    const booked = await bed.db.transaction((tx) =>
      bookInAndOut(tx, client.id, place(byBookInAndOut.id), goods(byBookInAndOut.id, 'INV-IN-OUT'), bookedIn, shipping, now),
    );
    expect([booked]).toEqual(taken);
    // Equal but for the product, its sku and its location's code, and the ids.
    const comparable = async (productId: number) =>
      (await mutationsOf(productId))
        .sort((a, b) => a.id - b.id)
        .map(({ id, productId: _, sku, locationCode, ...rest }) => ({ ...rest, locationCode: locationCode.slice(0, 7) }));
    expect(await comparable(byBookInAndOut.id)).toEqual(await comparable(byPutAndTake.id));
    expect((await comparable(byBookInAndOut.id)).map((m) => [m.type, m.quantity])).toEqual([
      ['CORRECTION', 3],
      ['SHIPMENT', -3],
    ]);
    expect(await rowsOf(byBookInAndOut.id)).toEqual([]);
    expect(await rowsOf(byPutAndTake.id)).toEqual([]);
    const locations = await bed.db.select().from(schema.stockLocations).where(eq(schema.stockLocations.clientId, client.id));
    expect(locations.map((l) => l.locationCode)).toContain(place(byBookInAndOut.id).locationCode);
  });

  it('stockLevelsOf sums the stock per warehouse, and an open order for the default warehouse lowers its free stock', async () => {
    const { id } = await createProduct(bed.db, client.id, { sku: 'INV-LEVELS', name: 'Levelled' });
    const elsewhere = client.defaultWarehouse === 'NN' ? 'BW' : 'NN';
    await put({ productId: id, sku: 'INV-LEVELS', quantity: 7 });
    await put({ productId: id, sku: 'INV-LEVELS', quantity: 4 }, elsewhere);
    await placedOrder(bed, client, [{ sku: 'INV-LEVELS', quantity: 2 }]);
    const levels = (await stockLevelsOf(bed.db, client, [id])).get(id)!;
    const byWarehouse = Object.fromEntries(levels.map((l) => [l.warehouse, l]));
    expect(byWarehouse[client.defaultWarehouse]).toMatchObject({ physical: 7, stock: 7, free: 5 });
    expect(byWarehouse[elsewhere]).toMatchObject({ physical: 4, stock: 4, free: 4 });
  });
});
