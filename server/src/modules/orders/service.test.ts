// Placing an order, on the orders module alone (no app, no API): one statement writes the order with its addresses,
// items and pick-up point, or writes nothing and reports every problem.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queryRows, schema } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Client } from '../clients/client.ts';
import { createProduct } from '../products/service.ts';
import { placedRelations } from './repository.ts';
import { type NewOrder, placeOrder } from './service.ts';
import { type ModuleTestBed, openModuleTestBed } from '../../../test/support/bed/modules.ts';

// Made once for the file, before its tests are collected: constants, no state at the module's top level.
const bed: ModuleTestBed = await openModuleTestBed();
const client: Client = await bed.newClient();
for (const sku of ['UNIT-SHIRT', 'UNIT-MUG']) await createProduct(bed.db, client.id, { sku, name: `${sku} name` });
const [{ id: orderTypeId }] = await bed.db.select().from(schema.orderTypes).where(eq(schema.orderTypes.clientId, client.id)).limit(1);

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street1: 'Keizersgracht',
  houseNumber: '1',
  postcode: '1015 CJ',
  city: 'Amsterdam',
  countryCode: 'NL',
};
const newOrder = (changes: Partial<NewOrder> = {}): NewOrder => ({
  externalOrderNumber: `UNIT-${randomUUID()}`,
  locale: 'nl-NL',
  orderTypeId,
  deliveryAddress: address,
  items: [{ sku: 'UNIT-SHIRT', quantity: 2 }],
  ...changes,
});
const ordersOf = async () => (await bed.db.select().from(schema.orders).where(eq(schema.orders.clientId, client.id))).length;

/** What a refused placement threw. */
async function refusal(order: NewOrder): Promise<DomainError> {
  const error = await placeOrder(bed.db, bed.services.orderPlacing, client.id, order).catch((e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

afterAll(() => bed.close());

describe('placeOrder', () => {
  it('writes the order with its addresses, items and pick-up point, and returns the rows it wrote', async () => {
    const placed = await placeOrder(
      bed.db,
      bed.services.orderPlacing,
      client.id,
      newOrder({
        billingAddress: { ...address, firstName: 'Charles' },
        pickUpPoint: { identifier: 'PUP-1', countryCode: 'NL' },
        items: [
          { sku: 'UNIT-SHIRT', quantity: 2 },
          { sku: 'UNIT-MUG', quantity: 1, name: 'Own name' },
        ],
      }),
    );
    expect(placed.order.clientId).toBe(client.id);
    expect(placed.deliveryAddress.firstName).toBe('Ada');
    expect(placed.billingAddress.firstName).toBe('Charles');
    expect(placed.pickUpPoint?.identifier).toBe('PUP-1');
    expect(placed.items.map((i) => [i.sku, i.quantity, i.name])).toEqual([
      ['UNIT-SHIRT', 2, 'UNIT-SHIRT name'],
      ['UNIT-MUG', 1, 'Own name'],
    ]);
    const [stored] = await bed.db.select().from(schema.orders).where(eq(schema.orders.id, placed.order.id));
    expect(stored).toEqual(placed.order);
  });

  it('fills the defaults the client left out', async () => {
    const { order, billingAddress, deliveryAddress } = await placeOrder(bed.db, bed.services.orderPlacing, client.id, newOrder());
    expect(order).toMatchObject({ currency: 'EUR', onHold: false, metadata: {}, isValid: true });
    expect(billingAddress.id).toBe(deliveryAddress.id);
  });

  it('refuses an unknown SKU with 404-1 at its item, and writes nothing', async () => {
    const before = await ordersOf();
    const error = await refusal(
      newOrder({
        items: [
          { sku: 'UNIT-MUG', quantity: 1 },
          { sku: 'NO-SUCH-SKU', quantity: 1 },
        ],
      }),
    );
    expect(error.items).toMatchObject([{ code: '404-1', path: ['items', 1, 'sku'] }]);
    expect(await ordersOf()).toBe(before);
  });

  it('refuses a second order with the same externalOrderNumber with 409-1, naming the first', async () => {
    const first = await placeOrder(bed.db, bed.services.orderPlacing, client.id, newOrder());
    const error = await refusal(newOrder({ externalOrderNumber: first.order.externalOrderNumber }));
    expect(error.items).toMatchObject([{ code: '409-1', path: ['externalOrderNumber'], existing: { type: 'order', id: first.order.id } }]);
  });

  it("runs a placement hook's writes in the same statement, reading the rows it placed by their relations' names", async () => {
    const hooked = await openModuleTestBed({
      placement: {
        writes: sql.raw(
          `noted as (insert into placed_note (order_id, items) select id, (select count(*) from ${placedRelations.items}) from ${placedRelations.order})`,
        ),
      },
    });
    try {
      await hooked.db.execute(sql`create table placed_note (order_id int primary key, items int not null)`);
      const other = await hooked.newClient();
      await createProduct(hooked.db, other.id, { sku: 'UNIT-SHIRT', name: 'Shirt' });
      const [type] = await hooked.db.select().from(schema.orderTypes).where(eq(schema.orderTypes.clientId, other.id)).limit(1);
      const placed = await placeOrder(hooked.db, hooked.services.orderPlacing, other.id, { ...newOrder(), orderTypeId: type.id });
      const notes = await queryRows<{ order_id: number; items: number }>(hooked.db, sql`select order_id, items from placed_note`);
      expect(notes).toEqual([{ order_id: placed.order.id, items: 1 }]);
    } finally {
      await hooked.close();
    }
  });
});
