// Placing an order in one statement, written by hand: creating orders is the hottest write. The statement looks up
// everything the order refers to and, when all of it is there, writes the order with its addresses, items and pick-up
// point and returns the rows written, so a create costs one round trip. Its text is fixed (the order travels as one
// JSON parameter, whatever its number of items), so each PostgreSQL connection and the embedded database parse and plan
// it once (planning this statement cost PGlite more than running it). Its text is rendered once, when this module
// loads (textStatement): drizzle rendering it on every call was about 2.5 % of the server's busy time under load.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { casing, type Db, queryStatement, schema, textStatement } from '../../platform/db/index.ts';
import { placedColumnKeys, type PlacedFields } from './fields.ts';

const { orders, orderItems, addresses, pickUpPoints } = schema;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type PickUpPointRow = typeof pickUpPoints.$inferSelect;

/**
 * The order's own columns that the client gives, defaults applied (fields.ts), and v2's validity; the order type and
 * shipping method come from the lookup.
 */
export type OrderValues = PlacedFields & { isValid: boolean };

/** An item as given, its vat default applied; its product, and the product's name when it has none, come from the lookup. */
export interface OrderItemValues {
  sku: string;
  quantity: number;
  channelIdentifier: string | null;
  fulfillFrom: string | null;
  price: number | null;
  vat: number;
  name: string | null;
  metadata: Record<string, string | null>;
}

/** The addresses and the pick-up point are the service's AddressInput and PickUpPointInput, read by member name. */
export interface OrderPlacement {
  orderTypeId: number;
  /** Absent: the client's default main shipping method (its first). */
  shippingMethodId?: number;
  order: OrderValues;
  delivery: object | undefined;
  /** Absent: the delivery address is the billing address. */
  billing?: object;
  pickUpPoint?: object;
  items: OrderItemValues[];
}

export interface OrderReferences {
  orderType?: { id: number };
  shippingMethod?: { id: number; name: string };
  /** The client's order that already has the externalOrderNumber. */
  existing?: { id: number };
  productBySku: Map<string, { id: number; name: string }>;
}

/** A sku of a new order's goods, and how much of it free stock does not cover. */
export interface Shortfall {
  sku: string;
  quantity: number;
}

/** What one placement wrote, and what free stock did not cover of its goods when it was written. */
export interface PlacedOrder {
  order: OrderRow;
  items: OrderItemRow[];
  deliveryAddress: AddressRow;
  billingAddress: AddressRow;
  pickUpPoint?: PickUpPointRow;
  shortfall: Shortfall[];
}

const addressColumns = sql.raw(
  'first_name, last_name, prefix, company, street1, street2, house_number, house_number_extension, postcode, city, region, country_code, translated_name',
);
/** The AddressInput members in the order of addressColumns. */
const addressRecord = sql.raw(
  '"firstName" text, "lastName" text, prefix text, company text, street1 text, street2 text, "houseNumber" text, "houseNumberExtension" text, postcode text, city text, region text, "countryCode" text, "translatedName" text',
);

/**
 * The order's fields the client gives (fields.ts), as the placing statement names them: the columns it inserts, the
 * members of the order's JSON it reads them from, and their types there. Made once, when this module loads.
 */
function placedLists() {
  const names = new CasingCache(casing);
  const quoted = (name: string) => `"${name}"`;
  return {
    columns: sql.raw(placedColumnKeys.map((key) => quoted(names.getColumnCasing(orders[key]))).join(', ')),
    values: sql.raw(placedColumnKeys.map((key) => `o.${quoted(key)}`).join(', ')),
    record: sql.raw(placedColumnKeys.map((key) => `${quoted(key)} ${orders[key].getSQLType()}`).join(', ')),
  };
}
const fieldLists = placedLists();

/** The statement's answer: the references found, and the rows written (as the database's JSON: snake_case). */
interface Answer {
  orderType: number | null;
  shippingMethod: { id: number; name: string } | null;
  existing: number | null;
  products: { id: number; sku: string; name: string }[];
  order: Record<string, unknown> | null;
  deliveryAddress: Record<string, unknown> | null;
  billingAddress: Record<string, unknown> | null;
  pickUpPoint: Record<string, unknown> | null;
  items: Record<string, unknown>[];
  shortfall: Shortfall[];
}

/**
 * Column name in the database → TypeScript name, for the columns the statement answers with, worked out once when the
 * module loads. A column's `name` is its TypeScript key, which the casing turns into the database's snake_case as a
 * query is rendered, so the map is keyed by the casing's name. (Keyed by `name`, it missed every column of every
 * answer, and a regular expression made each name again: about 50 µs of the server's time per create, in a CPU
 * profile under load.)
 */
const keys: ReadonlyMap<string, string> = (() => {
  const names = new CasingCache(casing);
  return new Map(
    [orders, orderItems, addresses, pickUpPoints].flatMap((table) =>
      Object.entries(getTableColumns(table) as Record<string, AnyPgColumn>).map(
        ([key, column]) => [names.getColumnCasing(column), key] as const,
      ),
    ),
  );
})();

/** The TypeScript names of a table's timestamp columns, which a row holds as dates. */
const timestampsOf = (table: PgTable) =>
  Object.entries(getTableColumns(table) as Record<string, AnyPgColumn>)
    .filter(([, column]) => column.dataType === 'date')
    .map(([key]) => key);
const orderTimestamps = timestampsOf(orders);

/**
 * A row as drizzle reads it: the columns by their TypeScript names, timestamps as dates. A column the schema does not
 * know is left out, as drizzle's select leaves it out: a database a newer release migrated, while this process runs.
 */
function rowOf<T>(json: Record<string, unknown>, timestamps: string[] = []): T {
  const row: Record<string, unknown> = {};
  for (const column in json) {
    const key = keys.get(column);
    if (key === undefined) continue;
    const value = json[column];
    row[key] = value !== null && timestamps.includes(key) ? new Date(value as string) : value;
  }
  return row as T;
}

/** The relations of the placing statement that further writes may read: the rows it wrote, under these names. */
export const placedRelations = {
  order: 'inserted',
  items: 'item',
  pickUpPoint: 'pick_up_point',
  delivery: 'delivery',
  billing: 'billing',
} as const;
export type PlacedRelations = typeof placedRelations;

/**
 * More that the placing statement writes in its one round trip, from the rows it wrote: handed in by the composition
 * root (app.ts gives the representation's stored JSON of the order and its items, representation/stored.ts), so the
 * statement stays one round trip and this module names nothing of what the further writes are.
 */
export interface PlacementHook {
  /** Evaluated in the statement's first CTE, before any row is written. */
  readonly before?: SQL;
  /** CTEs after the statement's own; they read `PlacedRelations` by name. */
  readonly writes: SQL;
  /** Evaluated in the answer, after every write. */
  readonly after?: SQL;
}

/**
 * What the placing statement is made of besides its own writes, handed in by the composition root: `shortfall`, a JSON
 * array of Shortfall evaluated in the answer after every write, reading `PlacedRelations` by name (the shipments
 * module's rules, newOrderShortfall); `hook`, further writes.
 */
export interface PlacementParts {
  readonly shortfall: SQL;
  readonly hook?: PlacementHook;
}

/** The placing statement, rendered once per app with its parts. */
export interface OrderPlacing {
  placeOrderRows(
    db: Db,
    clientId: number,
    now: Date,
    placement: OrderPlacement,
    write: boolean,
  ): Promise<{ references: OrderReferences; placed?: PlacedOrder }>;
}

/** The statement: the order travels as one JSON parameter, the rest as a few scalars. */
const placeOrderStatement = ({ shortfall, hook }: PlacementParts) =>
  textStatement(
    sql`with input as (
      select ${sql.placeholder('clientId')}::int as client_id, ${sql.placeholder('document')}::jsonb as doc, ${sql.placeholder('orderTypeId')}::int as order_type_id,
        ${sql.placeholder('shippingMethodId')}::int as shipping_method_id, ${sql.placeholder('externalOrderNumber')}::text as external_order_number,
        ${sql.placeholder('write')}::boolean as write, ${sql.placeholder('now')}::timestamptz as now${
          hook?.before ? sql`, ${hook.before} as marked` : sql``
        }),
    order_type as (
      select order_types.id from order_types, input
      where order_types.client_id = input.client_id and order_types.id = input.order_type_id),
    shipping_method as (
      select shipping_methods.id, shipping_methods.name from shipping_methods, input
      where shipping_methods.client_id = input.client_id and shipping_methods.kind = 'main'
        and (input.shipping_method_id is null or shipping_methods.id = input.shipping_method_id)
      order by shipping_methods.id limit 1),
    existing as (
      select orders.id from orders, input
      where orders.client_id = input.client_id and orders.external_order_number = input.external_order_number),
    item_input as (
      select i.* from input,
        jsonb_to_recordset(input.doc -> 'items') as i(sku text, quantity int, "channelIdentifier" text, "fulfillFrom" text,
          price numeric, vat numeric, name text, metadata jsonb, position int)),
    product as (
      select products.id, products.sku, products.name from products, input
      where products.client_id = input.client_id and products.sku in (select sku from item_input)),
    new_order as (
      select nextval('orders_id_seq')::int as id from input
      where input.write and exists (select from order_type) and exists (select from shipping_method)
        and not exists (select from existing)
        and not exists (select from item_input where sku not in (select sku from product))),
    delivery as (
      insert into addresses (client_id, order_id, ${addressColumns})
      select input.client_id, new_order.id, a.*
      from new_order, input, jsonb_to_record(input.doc -> 'delivery') as a(${addressRecord})
      returning *),
    billing as (
      insert into addresses (client_id, order_id, ${addressColumns})
      select input.client_id, new_order.id, a.*
      from new_order, input, jsonb_to_record(input.doc -> 'billing') as a(${addressRecord})
      where jsonb_typeof(input.doc -> 'billing') = 'object'
      returning *),
    inserted as (
      insert into orders (id, client_id, ${fieldLists.columns}, order_type_id, preferred_shipping_method_id, delivery_address_id,
        billing_address_id, is_valid, created_at)
      overriding system value
      select new_order.id, clients.id, ${fieldLists.values}, order_type.id, shipping_method.id,
        (select id from delivery), coalesce((select id from billing), (select id from delivery)), o."isValid",
        input.now + clients.clock_offset_seconds * interval '1 second'
      from new_order, input, clients, order_type, shipping_method,
        jsonb_to_record(input.doc -> 'order') as o(${fieldLists.record}, "isValid" boolean)
      where clients.id = input.client_id
      returning *),
    pick_up_point as (
      insert into pick_up_points (client_id, order_id, identifier, registration_number, name, street1, street2, postcode,
        house_number, house_number_extension, city, region, country_code)
      select input.client_id, inserted.id, p.*
      from inserted, input,
        jsonb_to_record(input.doc -> 'pickUpPoint') as p(identifier text, "registrationNumber" text, name text, street1 text,
          street2 text, postcode text, "houseNumber" text, "houseNumberExtension" text, city text, region text, "countryCode" text)
      where jsonb_typeof(input.doc -> 'pickUpPoint') = 'object'
      returning *),
    item as (
      insert into order_items (client_id, order_id, product_id, sku, quantity, ordered_quantity, channel_identifier, fulfill_from,
        price, vat, name, metadata)
      select input.client_id, inserted.id, product.id, i.sku, i.quantity, i.quantity, i."channelIdentifier", i."fulfillFrom",
        i.price, i.vat, coalesce(nullif(i.name, ''), product.name), i.metadata
      from input, inserted, item_input i join product on product.sku = i.sku
      order by i.position
      returning *)${hook ? sql`, ${hook.writes}` : sql``}
    select json_build_object(
      'orderType', (select id from order_type),
      'shippingMethod', (select row_to_json(s) from shipping_method s),
      'existing', (select id from existing),
      'products', (select coalesce(json_agg(p), '[]') from product p),
      'order', (select row_to_json(o) from inserted o),
      'deliveryAddress', (select row_to_json(a) from delivery a),
      'billingAddress', coalesce((select row_to_json(a) from billing a), (select row_to_json(a) from delivery a)),
      'pickUpPoint', (select row_to_json(p) from pick_up_point p),
      'items', (select coalesce(json_agg(i order by i.id), '[]') from item i),
      'shortfall', ${shortfall})::text as answer${hook?.after ? sql`, ${hook.after} as unmarked` : sql``}`,
  );

/**
 * Looks up what the order refers to (its order type, its shipping method or the client's default, its products, an
 * order with its externalOrderNumber) and, when `write` is set and everything is there and nothing is in the way,
 * writes it: all in one statement, so nothing is ever half-written. The order's id is taken first, so its addresses
 * are written with it; its createdAt is `now` on the client's clock, read from the clients row in the same statement.
 * An order with the same externalOrderNumber written meanwhile makes it fail on orders_client_external_key.
 */
export function orderPlacing(parts: PlacementParts): OrderPlacing {
  const statement = placeOrderStatement(parts);
  return {
    async placeOrderRows(db, clientId, now, placement, write) {
      const { order, items } = placement;
      const document = JSON.stringify({ ...placement, items: items.map((item, position) => ({ ...item, position })) });
      const [[answer]] = await queryStatement(db, statement, {
        clientId,
        document,
        orderTypeId: placement.orderTypeId,
        shippingMethodId: placement.shippingMethodId ?? null,
        externalOrderNumber: order.externalOrderNumber,
        write,
        now: now.toISOString(),
      });
      const found = JSON.parse(answer!) as Answer;
      const references: OrderReferences = {
        ...(found.orderType === null ? {} : { orderType: { id: found.orderType } }),
        ...(found.shippingMethod === null ? {} : { shippingMethod: found.shippingMethod }),
        ...(found.existing === null ? {} : { existing: { id: found.existing } }),
        productBySku: new Map(found.products.map((p) => [p.sku, { id: p.id, name: p.name }])),
      };
      if (!found.order) return { references };
      return {
        references,
        placed: {
          order: rowOf<OrderRow>(found.order, orderTimestamps),
          items: found.items.map((item) => rowOf<OrderItemRow>(item)),
          deliveryAddress: rowOf<AddressRow>(found.deliveryAddress!),
          billingAddress: rowOf<AddressRow>(found.billingAddress!),
          ...(found.pickUpPoint ? { pickUpPoint: rowOf<PickUpPointRow>(found.pickUpPoint) } : {}),
          shortfall: found.shortfall,
        },
      };
    },
  };
}
