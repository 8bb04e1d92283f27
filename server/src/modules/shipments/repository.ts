// The SQL of making and moving shipments: what an order still needs, what stock is free, what a shipment carries, and
// the rows a shipment's moves write. The rules that use these live in service.ts.
import { and, asc, eq, inArray, isNull, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import { anyOf, type Db, ownedBy, queryRows, schema } from '../../platform/db/index.ts';
import { locationTypesExcludedFromFulfilment } from '../inventory/levels.ts';

const {
  clients,
  orders,
  orderItems,
  products,
  productParts,
  shipments,
  shipmentItems,
  addresses,
  pickUpPoints,
  shippingMethods,
  stock,
  returnReasons,
} = schema;

export type ShipmentRow = typeof shipments.$inferSelect;
export type ShipmentItemRow = typeof shipmentItems.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
type ProductRow = typeof products.$inferSelect;

/** A line a shipment carries: an order item (null for a bundle's part) of a product. */
export interface Line {
  orderItemId: number | null;
  productId: number;
  sku: string;
  quantity: number;
}

/** The location types whose stock no shipment takes, as a list of parameters. */
const excludedLocations = sql.join(
  locationTypesExcludedFromFulfilment.map((type) => sql`${type}`),
  sql`, `,
);

/**
 * SQL: the goods of the order items aliased `item`, by the rules of goodsOfLines: `join` gives each item its product
 * `p` and, for a bundle, each of its parts `pp` (a row per part); `where` keeps the items that need goods (not a
 * service, not a bundle without parts).
 */
const goodsOfItems = (item: string) => ({
  join: sql`join ${products} p on p.id = ${sql.raw(item)}.product_id
      left join ${productParts} pp on p.type = 'BUNDLE' and pp.product_id = p.id`,
  where: sql`p.type <> 'SERVICE' and (p.type <> 'BUNDLE' or pp.id is not null)`,
});

/**
 * SQL, a relation `(product_id, reserved)`: the stock that the client's open shipments in the warehouse reserve, per
 * product; `of` are expressions of the statement that uses it. It is a function of the database (migration
 * 0021_reserved_stock_function), so that its plan does not depend on the statistics: as a join of the calling
 * statement, the plan a connection kept from while the shipment tables were empty read both tables whole once for each
 * shipment item, 32 of a create's 32.5 ms while another client's clock advance made shipments. The function reads the
 * client's open shipments by their index and their items by shipment, so its work is the client's own open shipments,
 * whatever the size of the tables.
 */
const reservedStock = (of: { client: SQL; warehouse: SQL }) => sql`shopapi_reserved_stock(${of.client}, ${of.warehouse})`;

/**
 * SQL: the free stock of a product in a warehouse of a client, by the rules of unreserved: the joins (`s`, and `r` with
 * its column `reserved`) and the quantity they give, sellable stock on the shelf less what open shipments there
 * reserved, at least 0. Each of `of` is an expression of the statement that uses it. `reserved`, when given, is the
 * join that gives `r`, for a statement that reads the reservations of several warehouses once each (ordersToStart).
 */
const freeStockOf = (of: { client: SQL; warehouse: SQL; product: SQL; reserved?: SQL }) => ({
  join: sql`left join lateral (
        select sum(st.quantity) as on_shelf from ${stock} st
        where st.client_id = ${of.client} and st.warehouse_code = ${of.warehouse} and st.product_id = ${of.product}
          and not st.quarantined and st.quality = 'OK' and st.status = 'OK' and st.location_type not in (${excludedLocations})
      ) s on true
      left join ${of.reserved ?? sql`lateral ${reservedStock(of)} r on r.product_id = ${of.product}`}`,
  quantity: sql`greatest(0, coalesce(s.on_shelf, 0) - coalesce(r.reserved, 0))`,
});

/** What is still open on an order: item quantities no shipment covers yet. */
export async function openLines(tx: Db, orderId: number): Promise<Line[]> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  const covered = await tx
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})`.mapWith(Number) })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(eq(shipments.orderId, orderId))
    .groupBy(shipmentItems.orderItemId);
  return items
    .map((i) => ({
      orderItemId: i.id,
      productId: i.productId,
      sku: i.sku,
      quantity: i.quantity - (covered.find((c) => c.orderItemId === i.id)?.quantity ?? 0),
    }))
    .filter((l) => l.quantity > 0);
}

/**
 * SQL, a JSON array of `{ sku, quantity }`: what free stock does not cover of a new order's goods, per sku (a bundle's
 * parts; services none), in the order of its items; the rules of missingGoods, unreserved and goodsOfLines. It is an
 * expression of the statement that places the order (orders/repository.ts, composed in app.ts), so that a create stays
 * one round trip to the database: the check in a statement of its own was a third of a create's socket writes. That
 * statement's writes are not visible to its other parts, so this reads the order and the items it wrote under the names
 * of its relations (`placed`); a new order has no shipment yet, so all of its items are open.
 */
export function newOrderShortfall(placed: { order: string; items: string }): SQL {
  const goods = goodsOfItems('i');
  const free = freeStockOf({ client: sql`w.client_id`, warehouse: sql`w.warehouse`, product: sql`n.product_id` });
  return sql`(select coalesce(json_agg(json_build_object('sku', n.sku, 'quantity', (n.quantity - ${free.quantity})::int)
        order by n.first_item, n.sku), '[]')
      from (
        select coalesce(pp.part_id, i.product_id) as product_id, min(coalesce(part.sku, i.sku)) as sku,
          sum(i.quantity * coalesce(pp.quantity, 1)) as quantity, min(i.id) as first_item
        from ${sql.raw(placed.items)} i
        ${goods.join}
        left join ${products} part on part.id = pp.part_id
        where ${goods.where}
        group by coalesce(pp.part_id, i.product_id)
      ) n
      cross join (
        select o.client_id, coalesce(o.fulfill_from, c.default_warehouse) as warehouse
        from ${sql.raw(placed.order)} o join ${clients} c on c.id = o.client_id
      ) w
      ${free.join}
      where n.quantity > ${free.quantity})`;
}

/** Sellable stock in a warehouse minus what open shipments there have reserved, per product. */
export async function unreserved(tx: Db, clientId: number, warehouse: string, productIds: number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (!productIds.length) return result;
  const onShelf = await tx
    .select({ productId: stock.productId, quantity: sql<number>`sum(${stock.quantity})`.mapWith(Number) })
    .from(stock)
    .where(
      and(
        ownedBy(stock, clientId),
        eq(stock.warehouseCode, warehouse),
        inArray(stock.productId, productIds),
        eq(stock.quarantined, false),
        eq(stock.quality, 'OK'),
        eq(stock.status, 'OK'),
        notInArray(stock.locationType, [...locationTypesExcludedFromFulfilment]),
      ),
    )
    .groupBy(stock.productId);
  const reserved = await queryRows<{ product_id: number; reserved: string }>(
    tx,
    sql`select r.product_id, r.reserved from ${reservedStock({ client: sql`${clientId}`, warehouse: sql`${warehouse}` })} r
      where ${anyOf(sql`r.product_id`, productIds)}`,
  );
  for (const id of productIds) {
    const held = Number(reserved.find((r) => r.product_id === id)?.reserved ?? 0);
    result.set(id, (onShelf.find((r) => r.productId === id)?.quantity ?? 0) - held);
  }
  return result;
}

/** The ids of the order's shipments not yet SHIPPED, oldest first. */
export async function shipmentsUnderWay(db: Db, orderId: number): Promise<number[]> {
  const rows = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), ne(shipments.status, 'SHIPPED')))
    .orderBy(asc(shipments.id));
  return rows.map((r) => r.id);
}

/** The items of the order's SHIPPED shipments, in item order: what a return of the order can take back. */
export async function shippedItemsOfOrder(db: Db, clientId: number, orderId: number) {
  return db
    .select({ id: shipmentItems.id, shipmentId: shipmentItems.shipmentId, sku: shipmentItems.sku, quantity: shipmentItems.quantity })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(ownedBy(shipments, clientId), eq(shipments.orderId, orderId), eq(shipments.status, 'SHIPPED')))
    .orderBy(asc(shipmentItems.id));
}

/** How many orders a page of ordersToStart looks at. */
export const ordersToStartPage = 1000;

/**
 * The client's orders a shipment may start for, oldest first: valid, not on hold, not fulfilled, none under way, with
 * open lines that free stock may cover (in full, or in part when the order allows partial delivery). The warehouse
 * tries each in a transaction of its own (startOrderShipments decides), every round: an order that waits for goods
 * would otherwise be tried again each time, ten statements for nothing, and a client with a few thousand such orders
 * kept the warehouse busy all the time (on the embedded database, half of the server's thread).
 *
 * The stock condition never leaves out an order that can start: each order's lines are measured against the free
 * stock alone, not against each other's or other orders' (plan() in service.ts subtracts them as it goes), with the
 * rules of goodsOfLines and unreserved: a bundle needs its parts, a service or a bundle without parts nothing.
 *
 * A page at a time: the `limit` orders after the id `after` are looked at (3,000 in one statement took 23 ms on the
 * embedded database, which runs it on the server's thread); `next` is where the next page starts, absent after the last.
 */
export async function ordersToStart(
  db: Db,
  clientId: number,
  page: { after?: number; limit?: number } = {},
): Promise<{ ids: number[]; next?: number }> {
  const { after = 0, limit = ordersToStartPage } = page;
  const goods = goodsOfItems('l');
  const free = freeStockOf({
    client: sql`${clientId}`,
    warehouse: sql`w.warehouse`,
    product: sql`w.product_id`,
    // The reservations of each warehouse once: as a lateral of each (warehouse, product), the function would run again
    // whenever the warehouse changed from one row to the next.
    reserved: sql`(select wh.warehouse, rs.product_id, rs.reserved from (select distinct warehouse from goods) wh
        cross join lateral ${reservedStock({ client: sql`${clientId}`, warehouse: sql`wh.warehouse` })} rs
      ) r on r.warehouse = w.warehouse and r.product_id = w.product_id`,
  });
  const [row] = await queryRows<{ ids: string; last: number | null; looked: number }>(
    db,
    sql`with candidate as (
      select o.id, o.allow_partial_delivery, coalesce(o.fulfill_from, c.default_warehouse) as warehouse
      from ${orders} o join ${clients} c on c.id = o.client_id
      where o.client_id = ${clientId} and o.id > ${after} and not o.on_hold and o.is_valid and o.fulfilled_at is null
        and not exists (select from ${shipments} s where s.order_id = o.id and s.status <> 'SHIPPED')
      order by o.id limit ${limit}
    ), covered as (
      select si.order_item_id, sum(si.quantity) as quantity
      from ${shipmentItems} si join ${shipments} s on s.id = si.shipment_id join candidate on candidate.id = s.order_id
      where s.client_id = ${clientId} and si.order_item_id is not null
      group by si.order_item_id
    ), line as (
      select i.id, i.order_id, candidate.warehouse, i.product_id, i.quantity - coalesce(covered.quantity, 0) as open
      from ${orderItems} i join candidate on candidate.id = i.order_id left join covered on covered.order_item_id = i.id
      where i.client_id = ${clientId} and i.quantity - coalesce(covered.quantity, 0) > 0
    ), goods as (
      select l.id as line_id, l.warehouse, coalesce(pp.part_id, l.product_id) as product_id, coalesce(pp.quantity, 1) as per
      from line l
      ${goods.join}
      where ${goods.where}
    ), free as (
      select w.warehouse, w.product_id, ${free.quantity} as quantity
      from (select distinct warehouse, product_id from goods) w
      ${free.join}
    ), possible as (
      select l.order_id, l.open, least(l.open, coalesce(min(floor(f.quantity / g.per)), l.open)) as quantity
      from line l
      left join goods g on g.line_id = l.id
      left join free f on f.warehouse = g.warehouse and f.product_id = g.product_id
      group by l.id, l.order_id, l.open
    ), per_order as (
      select order_id, bool_and(quantity >= open) as complete, bool_or(quantity > 0) as some from possible group by order_id
    )
    select coalesce(json_agg(candidate.id order by candidate.id)
        filter (where per_order.complete or (candidate.allow_partial_delivery and per_order.some)), '[]')::text as ids,
      max(candidate.id) as last, count(*)::int as looked
    from candidate left join per_order on per_order.order_id = candidate.id`,
  );
  return { ids: JSON.parse(row.ids) as number[], ...(row.looked === limit ? { next: row.last! } : {}) };
}

/** Locks the order's row for the rest of the transaction; SKIP LOCKED gives nothing while another holds it. */
export async function lockOrder(tx: Db, id: number, opts: { skipLocked?: boolean } = {}): Promise<OrderRow | undefined> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(eq(orders.id, id))
    .for('update', opts.skipLocked ? { skipLocked: true } : {});
  return order;
}

export async function productsByIds(tx: Db, ids: number[]): Promise<ProductRow[]> {
  return tx.select().from(products).where(inArray(products.id, ids));
}

/** The parts of these bundles, with each part's sku. */
export async function partsOfBundles(tx: Db, bundleIds: number[]) {
  if (!bundleIds.length) return [];
  return tx
    .select({ productId: productParts.productId, partId: productParts.partId, quantity: productParts.quantity, sku: products.sku })
    .from(productParts)
    .innerJoin(products, eq(products.id, productParts.partId))
    .where(inArray(productParts.productId, bundleIds));
}

export async function shippingMethodById(tx: Db, id: number) {
  const [method] = await tx.select().from(shippingMethods).where(eq(shippingMethods.id, id));
  return method;
}

export async function addressById(tx: Db, id: number) {
  const [address] = await tx.select().from(addresses).where(eq(addresses.id, id));
  return address;
}

/** The postcode the order's goods go to. */
export async function deliveryPostcode(tx: Db, orderId: number): Promise<string | null> {
  const [order] = await tx.select({ deliveryAddressId: orders.deliveryAddressId }).from(orders).where(eq(orders.id, orderId));
  const [delivery] = await tx.select({ postcode: addresses.postcode }).from(addresses).where(eq(addresses.id, order.deliveryAddressId));
  return delivery?.postcode ?? null;
}

export async function hasPickUpPoint(tx: Db, orderId: number): Promise<boolean> {
  const [pickUpPoint] = await tx.select({ id: pickUpPoints.id }).from(pickUpPoints).where(eq(pickUpPoints.orderId, orderId));
  return !!pickUpPoint;
}

/** A new shipment with its lines. */
export async function insertShipment(tx: Db, values: typeof shipments.$inferInsert, lines: Line[]): Promise<ShipmentRow> {
  const [shipment] = await tx.insert(shipments).values(values).returning();
  await tx.insert(shipmentItems).values(lines.map((l) => ({ clientId: values.clientId, shipmentId: shipment.id, ...l })));
  return shipment;
}

export async function updateShipment(tx: Db, id: number, fields: Partial<ShipmentRow>): Promise<void> {
  await tx.update(shipments).set(fields).where(eq(shipments.id, id));
}

/** A shipment's items with what booking them out needs of their products. */
export async function itemsToBookOut(tx: Db, shipmentId: number) {
  return tx
    .select({ item: shipmentItems, type: products.type, hasSerialNumber: products.hasSerialNumber })
    .from(shipmentItems)
    .innerJoin(products, eq(products.id, shipmentItems.productId))
    .where(eq(shipmentItems.shipmentId, shipmentId))
    .orderBy(asc(shipmentItems.id));
}

export async function updateShipmentItem(tx: Db, id: number, fields: Partial<ShipmentItemRow>): Promise<void> {
  await tx.update(shipmentItems).set(fields).where(eq(shipmentItems.id, id));
}

/** Marks the order fulfilled when shipped shipments cover every item. */
export async function fulfilIfComplete(tx: Db, orderId: number, now: Date): Promise<void> {
  const items = await tx
    .select({ id: orderItems.id, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const shipped = await tx
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})`.mapWith(Number) })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(eq(shipments.orderId, orderId), eq(shipments.status, 'SHIPPED')))
    .groupBy(shipmentItems.orderItemId);
  if (items.every((i) => (shipped.find((s) => s.orderItemId === i.id)?.quantity ?? 0) >= i.quantity)) {
    await tx
      .update(orders)
      .set({ fulfilledAt: now })
      .where(and(eq(orders.id, orderId), isNull(orders.fulfilledAt)));
  }
}

/** What decides the scenario road an order follows: its scenario columns, its free fields and its delivery country. */
export async function roadFieldsOfOrder(tx: Db, orderId: number) {
  const [row] = await tx
    .select({
      scenario: orders.scenario,
      scenarioSetBy: orders.scenarioSetBy,
      metadata: orders.metadata,
      countryCode: addresses.countryCode,
    })
    .from(orders)
    .innerJoin(addresses, eq(addresses.id, orders.deliveryAddressId))
    .where(eq(orders.id, orderId));
  return row;
}

/** Which of its order's shipments this is, 1 for the first. */
export async function shipmentNumber(tx: Db, shipment: { id: number; orderId: number }): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(shipments)
    .where(and(eq(shipments.orderId, shipment.orderId), sql`${shipments.id} <= ${shipment.id}`));
  return row.n;
}

/** The id of the client's return reason with this code (compared without regard to case), if it has one. */
export async function returnReasonCoded(tx: Db, clientId: number, code: string): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: returnReasons.id })
    .from(returnReasons)
    .where(and(ownedBy(returnReasons, clientId), sql`upper(${returnReasons.code}) = ${code.toUpperCase()}`))
    .orderBy(asc(returnReasons.id))
    .limit(1);
  return row?.id;
}
