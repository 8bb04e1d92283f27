// A resource description gives the mapper and the SQL of its type: both must write the same bytes for any row, also for
// values real rows seldom hold (jsonb members missing, extra or of another type, NULL timestamps). The rows here stand
// in for the table under its name (jsonb_populate_recordset of the table's own row type), so no other row is needed.
import { afterAll, describe as group, expect, it } from 'vitest';
import { getTableName, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Address, AddressAttributes, Order } from '@shopapi/contract';
import { queryRows, schema } from '../platform/db/index.ts';
import type { ShipmentRow } from '../modules/shipments/service.ts';
import type { OrderItemRow } from '../modules/orders/service.ts';
import { openTestDatabase } from '../../test/support/bed/database.ts';
import { byName, describe, heldMany, heldOne, toOne } from './description.ts';
import { orderItemResource, orderItemSql } from './order-items.ts';
import { shipmentResource, shipmentSql } from './shipments.ts';
import type { ResourceSql } from './sql.ts';

const { database } = await openTestDatabase(false);
afterAll(() => database.close());
const base = 'http://sandbox.test';

/** The resource objects the SQL writes for these rows (by their TypeScript names), parsed, in id order. */
async function written(resourceSql: ResourceSql, table: PgTable, rows: object[]): Promise<unknown[]> {
  const name = sql.raw(`"${getTableName(table)}"`);
  const stored = rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [toSnakeCase(key), value])));
  const related = resourceSql.related;
  // The relationships other tables hold read none of their rows: the stand-in ids are nobody's.
  const ctes = related ? sql`, ${related.ctesFrom((other) => sql`from ${other} where false`)}` : sql``;
  const answer = await queryRows<{ json: string }>(
    database.db,
    sql`with request(base) as (select ${JSON.stringify(base).slice(0, -1)}::text),
      ${name} as (select * from jsonb_populate_recordset(null::${table}, ${JSON.stringify(stored)}::jsonb))${ctes}
      select ${resourceSql.json} as json from ${name} ${related?.joins ?? sql``} order by ${resourceSql.id}`,
  );
  return answer.map((row) => JSON.parse(row.json));
}

const trickyText = 'He said "hi" \\ \n\t</script> ünï 𝄞 \u0001 \u2028';
const shipment = (id: number, changes: Partial<ShipmentRow>) =>
  ({
    id,
    status: 'SHIPPED',
    readyToPickOn: new Date('2026-01-02T03:04:05.678Z'),
    readyToShipOn: null,
    shippedOn: null,
    warehouseCode: 'NL01',
    weight: 1200,
    invoicingWeight: null,
    basketPicture: null,
    returnLabel: null,
    metadata: {},
    tracking: null,
    colli: [],
    orderId: 7,
    orderTypeId: 3,
    shippingMethodId: 4,
    ...changes,
  }) as ShipmentRow;

group('a resource description', () => {
  it('gives a mapper that writes what its SQL writes, jsonb shaped by the contract on both sides', async () => {
    const shipments = [
      shipment(1, {}),
      // Metadata with members the contract lacks, one missing and one of another type; tracking with a member missing.
      shipment(2, {
        shippedOn: new Date('2026-02-03T04:05:06.007Z'),
        metadata: { extra9: 'not in the contract', extra2: trickyText, extra1: 5 as unknown as string },
        tracking: { carrier: 'DHL', number: '3S123', stage: 'SORTED' } as ShipmentRow['tracking'],
        colli: [
          { number: 1, parcelNumber: 'P-1' },
          { trackingUrl: null, extra: true },
        ] as unknown as ShipmentRow['colli'],
      }),
      // A jsonb value of another shape than the contract's: an array where an object goes, an object where an array goes.
      shipment(3, { metadata: [] as unknown as ShipmentRow['metadata'], colli: {} as unknown as ShipmentRow['colli'] }),
    ];
    const mapped = shipments.map((s) => shipmentResource(s, [], base));
    expect(await written(shipmentSql, schema.shipments, shipments)).toEqual(mapped);
    // Not vacuous: the shapes the contract asks for, null where a member is absent, nothing the contract lacks.
    expect(mapped[1].attributes).toMatchObject({
      shippedOn: '2026-02-03T04:05:06.007Z',
      metadata: { extra1: 5, extra2: trickyText, extra3: null, extra4: null, extra5: null },
      tracking: { carrier: 'DHL', number: '3S123', stage: 'SORTED', status: null, url: null },
      colli: [
        { number: 1, parcelNumber: 'P-1', trackingUrl: null },
        { number: null, parcelNumber: null, trackingUrl: null },
      ],
    });
    expect(mapped[2].attributes).toMatchObject({ metadata: { extra1: null }, colli: [], tracking: null, shippedOn: null });

    const items: OrderItemRow[] = [
      {
        id: 11,
        clientId: 1,
        orderId: 7,
        productId: 9,
        sku: 'SKU-1',
        quantity: 2,
        orderedQuantity: 2,
        channelIdentifier: null,
        fulfillFrom: 'NL01',
        price: 12.5,
        vat: 0.21,
        name: trickyText,
        metadata: { extra7: 'seven' },
      },
    ];
    expect(await written(orderItemSql, schema.orderItems, items)).toEqual(items.map((item) => orderItemResource(item, base)));
  });

  it('writes the contract order and names whatever the description was given, however it was written', () => {
    const { attributes } = describe(Address, schema.addresses, 'addresses', {
      attributes: { ...byName(AddressAttributes), city: 'region', region: 'city' },
      relationships: {},
    }).map({ ...({} as typeof schema.addresses.$inferSelect), id: 5, city: 'Breda', region: 'Noord-Brabant' }, {}, base);
    expect(Object.keys(attributes as object)).toEqual(Object.keys(AddressAttributes.properties));
    expect(attributes).toMatchObject({ city: 'Noord-Brabant', region: 'Breda' });
  });

  it('refuses at start a description of a column its table does not have', () => {
    expect(() =>
      describe(Address, schema.addresses, 'addresses', {
        // @ts-expect-error: a typo in a column's key does not compile either
        attributes: { ...byName(AddressAttributes), city: 'town' },
        relationships: {},
      }),
    ).toThrow('address: town is not a column of its table');
  });

  it('does not compile without every attribute and relationship of the contract, or with one it lacks', () => {
    const relationships = {
      orderType: toOne('orderType', 'orderTypeId'),
      preferredShippingMethod: toOne('shippingMethod', 'preferredShippingMethodId'),
      deliveryAddress: toOne('address', 'deliveryAddressId'),
      billingAddress: toOne('address', 'billingAddressId'),
      pickUpPoint: heldOne('pickUpPoint', schema.pickUpPoints.id, schema.pickUpPoints.orderId),
      orderItems: heldMany('orderItem', schema.orderItems.id, schema.orderItems.orderId),
      orderAttachments: heldMany('orderAttachment', schema.orderAttachments.id, schema.orderAttachments.orderId),
    };
    const attributes = { ...byName(AddressAttributes) };
    // The runtime check is the contract's (sql.ts): the names built must be the contract's names.
    expect(() =>
      // @ts-expect-error: an address's attributes are not an order's
      describe(Order, schema.orders, 'orders', { attributes, relationships }),
    ).toThrow(/^order: /);
    expect(() =>
      describe(Address, schema.addresses, 'addresses', {
        attributes: byName(AddressAttributes),
        // @ts-expect-error: the contract's address has no relationships
        relationships: { order: toOne('order', 'orderId') },
      }),
    ).toThrow('address relationships: built [order], the contract has []');
  });
});
