// The client's settings as one value: read them, and replace any of their lists in one transaction (PUT /sandbox/settings
// and `client create --settings`), refusing to remove what orders, shipments or returns still use.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { paymentMethods, type WarehouseCode } from '@shopapi/contract';
import { anyOf, type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { ProblemCollector } from '../../platform/errors.ts';

const { clients, orderTypes, shippingMethods, returnReasons, languages, countries, orders, shipments, returnItems } = schema;

/** An entry of a list: with the id of a stored entry it replaces that one, without it is a new entry. */
interface Entry {
  id?: number | string;
  code: string;
  name: string;
}

/**
 * The lists of settings to replace; a list left out keeps what is stored. Problems name their place by a path into
 * it: ['orderTypes', 0, 'code'].
 */
export interface SettingsInput {
  orderTypes?: (Entry & { allowPartialDelivery?: boolean })[];
  mainShippingMethods?: (Entry & { carrier: string; warehouses: WarehouseCode[] })[];
  returnShippingMethods?: (Entry & { carrier: string; paperless?: boolean })[];
  languages?: Entry[];
  countries?: Entry[];
  returnReasons?: Entry[];
  /** Read-only (always the single method 1): accepted and not read. */
  paymentMethods?: unknown[];
}
type ListName = Exclude<keyof SettingsInput, 'paymentMethods'>;

/** Every row of the client's settings, each list ordered by id. One statement after another: in a transaction they share a connection. */
async function storedRows(db: Db, clientId: number) {
  return {
    orderTypes: await db.select().from(orderTypes).where(ownedBy(orderTypes, clientId)).orderBy(asc(orderTypes.id)),
    shippingMethods: await db.select().from(shippingMethods).where(ownedBy(shippingMethods, clientId)).orderBy(asc(shippingMethods.id)),
    returnReasons: await db.select().from(returnReasons).where(ownedBy(returnReasons, clientId)).orderBy(asc(returnReasons.id)),
    languages: await db.select().from(languages).where(ownedBy(languages, clientId)).orderBy(asc(languages.id)),
    countries: await db.select().from(countries).where(ownedBy(countries, clientId)).orderBy(asc(countries.id)),
  };
}

const idCodeName = (r: { id: number; code: string; name: string }) => ({ id: r.id, code: r.code, name: r.name });

/** GET /settings/get: the v2 form, with each main method's per-warehouse methods. */
export async function settingsOf(db: Db, clientId: number) {
  const rows = await storedRows(db, clientId);
  const methods = rows.shippingMethods;
  const idNameCode = (r: { id: number; name: string; code: string }) => ({ id: r.id, name: r.name, code: r.code });
  return {
    mainShippingMethods: methods
      .filter((m) => m.kind === 'main')
      .map((m) => ({
        ...idNameCode(m),
        shippingMethods: methods
          .filter((w) => w.kind === 'warehouse' && w.mainShippingMethodId === m.id)
          .map((w) => ({ id: w.id, warehouse: w.warehouse ?? '' })),
      })),
    shippingMethods: methods.filter((m) => m.kind === 'warehouse').map(idNameCode),
    returnShippingMethods: methods.filter((m) => m.kind === 'return').map(idNameCode),
    orderTypes: rows.orderTypes.map(idNameCode),
    countries: rows.countries.map(idNameCode),
    languages: rows.languages.map(idNameCode),
    returnReasons: rows.returnReasons.map(idNameCode),
    paymentMethods: paymentMethods.map(idNameCode),
  };
}

/** GET /sandbox/settings: the form PUT takes, main methods with the warehouses they ship from. */
export async function sandboxSettingsOf(db: Db, clientId: number) {
  const rows = await storedRows(db, clientId);
  const methods = rows.shippingMethods;
  return {
    orderTypes: rows.orderTypes.map((t) => ({ ...idCodeName(t), allowPartialDelivery: t.allowPartialDelivery })),
    mainShippingMethods: methods
      .filter((m) => m.kind === 'main')
      .map((m) => ({
        ...idCodeName(m),
        carrier: m.carrier,
        warehouses: methods
          .filter((w) => w.kind === 'warehouse' && w.mainShippingMethodId === m.id && w.warehouse)
          .map((w) => w.warehouse as WarehouseCode),
      })),
    returnShippingMethods: methods
      .filter((m) => m.kind === 'return')
      .map((m) => ({ ...idCodeName(m), carrier: m.carrier, paperless: m.paperless })),
    languages: rows.languages.map(idCodeName),
    countries: rows.countries.map(idCodeName),
    returnReasons: rows.returnReasons.map(idCodeName),
    paymentMethods: paymentMethods.map(idCodeName),
  };
}

export type SandboxSettings = Awaited<ReturnType<typeof sandboxSettingsOf>>;

const entryWords: Record<ListName, [one: string, many: string]> = {
  orderTypes: ['Order type', 'order types'],
  mainShippingMethods: ['Main shipping method', 'main shipping methods'],
  returnShippingMethods: ['Return shipping method', 'return shipping methods'],
  languages: ['Language', 'languages'],
  countries: ['Country', 'countries'],
  returnReasons: ['Return reason', 'return reasons'],
};

interface Stored {
  id: number;
  code: string;
}

/**
 * Checks one list against what is stored: ids must be the client's entries of this list, each once; codes unique
 * without regard to case. Returns the stored entries the list leaves out.
 */
function planList<R extends Stored>(
  list: ListName,
  entries: { id?: number | string; code: string }[],
  stored: R[],
  problems: ProblemCollector,
): R[] {
  const [one, many] = entryWords[list];
  const byId = new Map(stored.map((r) => [r.id, r]));
  const seenIds = new Map<number, number>();
  const seenCodes = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (entry.id !== undefined) {
      const id = Number(entry.id);
      if (!byId.has(id))
        problems.add('404', `${one} ${id} is not one of your ${many}; leave the id out to create a new entry.`, {
          path: [list, index, 'id'],
        });
      else if (seenIds.has(id))
        problems.add('400', `${one} ${id} is in ${list} twice (also at ${seenIds.get(id)}).`, { path: [list, index, 'id'] });
      else seenIds.set(id, index);
    }
    const code = entry.code.toLowerCase();
    if (seenCodes.has(code))
      problems.add(
        '400',
        `Code "${entry.code}" is in ${list} twice (also at ${seenCodes.get(code)}); codes are compared without regard to case.`,
        { path: [list, index, 'code'] },
      );
    else seenCodes.set(code, index);
  });
  return stored.filter((r) => !seenIds.has(r.id));
}

/** How many rows of the client name each of the ids in a column. */
async function usage(
  db: Db,
  clientId: number,
  table: PgTable,
  clientColumn: AnyPgColumn,
  column: AnyPgColumn,
  ids: number[],
): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: column, count: sql<number>`count(*)`.mapWith(Number) })
    .from(table)
    .where(and(eq(clientColumn, clientId), anyOf(column, ids)))
    .groupBy(column);
  return new Map(rows.map((r) => [Number(r.id), r.count]));
}

const counted = (count: number | undefined, word: string) => (count ? [`${count} ${word}${count === 1 ? '' : 's'}`] : []);

type ShippingMethodRow = typeof shippingMethods.$inferSelect;

/**
 * Replaces the lists the input gives, in the caller's transaction: validation first, then the writes, so an error
 * leaves everything as it was.
 */
export async function applySettings(tx: Db, clientId: number, input: SettingsInput): Promise<void> {
  // One change of a client's settings at a time: the checks below hold until this transaction ends.
  await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).for('update');
  const stored = await storedRows(tx, clientId);
  const mains = stored.shippingMethods.filter((m) => m.kind === 'main');
  const warehouseMethods = stored.shippingMethods.filter((m) => m.kind === 'warehouse');
  const problems = new ProblemCollector();
  const removed = {
    orderTypes: input.orderTypes ? planList('orderTypes', input.orderTypes, stored.orderTypes, problems) : [],
    mainShippingMethods: input.mainShippingMethods ? planList('mainShippingMethods', input.mainShippingMethods, mains, problems) : [],
    returnShippingMethods: input.returnShippingMethods
      ? planList(
          'returnShippingMethods',
          input.returnShippingMethods,
          stored.shippingMethods.filter((m) => m.kind === 'return'),
          problems,
        )
      : [],
    languages: input.languages ? planList('languages', input.languages, stored.languages, problems) : [],
    countries: input.countries ? planList('countries', input.countries, stored.countries, problems) : [],
    returnReasons: input.returnReasons ? planList('returnReasons', input.returnReasons, stored.returnReasons, problems) : [],
  };
  problems.throwIfAny();

  // Per-warehouse methods that go: those of removed main methods, and those of warehouses a kept main method drops.
  const removedMainIds = new Set(removed.mainShippingMethods.map((m) => m.id));
  const droppedWarehouses = new Map<number, { main: ShippingMethodRow; index: number }>();
  input.mainShippingMethods?.forEach((entry, index) => {
    if (entry.id === undefined) return;
    const main = mains.find((m) => m.id === Number(entry.id))!;
    for (const w of warehouseMethods) {
      if (w.mainShippingMethodId === main.id && !entry.warehouses.includes(w.warehouse as WarehouseCode))
        droppedWarehouses.set(w.id, { main, index });
    }
  });
  const removedWarehouseMethods = warehouseMethods.filter(
    (w) => removedMainIds.has(w.mainShippingMethodId ?? 0) || droppedWarehouses.has(w.id),
  );
  await checkUnused(tx, clientId, removed, removedWarehouseMethods, droppedWarehouses, problems);
  problems.throwIfAny();

  if (input.orderTypes) {
    await replaceRows(
      tx,
      orderTypes,
      removed.orderTypes,
      stored.orderTypes,
      input.orderTypes.map((e) => ({
        id: e.id,
        values: { clientId, code: e.code, name: e.name, allowPartialDelivery: e.allowPartialDelivery ?? false },
      })),
    );
  }
  if (input.returnShippingMethods) {
    await replaceRows(
      tx,
      shippingMethods,
      removed.returnShippingMethods,
      stored.shippingMethods,
      input.returnShippingMethods.map((e) => ({
        id: e.id,
        values: { clientId, kind: 'return' as const, code: e.code, name: e.name, carrier: e.carrier, paperless: e.paperless ?? false },
      })),
    );
  }
  for (const [list, table] of [
    ['languages', languages],
    ['countries', countries],
    ['returnReasons', returnReasons],
  ] as const) {
    const entries = input[list];
    if (entries)
      await replaceRows(
        tx,
        table,
        removed[list],
        stored[list],
        entries.map((e) => ({ id: e.id, values: { clientId, code: e.code, name: e.name } })),
      );
  }
  if (input.mainShippingMethods)
    await replaceMainShippingMethods(
      tx,
      clientId,
      input.mainShippingMethods,
      stored.shippingMethods,
      removed.mainShippingMethods,
      removedWarehouseMethods,
    );
}

/** 409 for every entry to be removed that an order, a shipment or a return item still names. */
async function checkUnused(
  tx: Db,
  clientId: number,
  removed: Record<ListName, Stored[]>,
  removedWarehouseMethods: ShippingMethodRow[],
  droppedWarehouses: Map<number, { main: ShippingMethodRow; index: number }>,
  problems: ProblemCollector,
) {
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
  const methodIds = [...ids(removed.mainShippingMethods), ...ids(removedWarehouseMethods)];
  const typeOrders = await usage(tx, clientId, orders, orders.clientId, orders.orderTypeId, ids(removed.orderTypes));
  const typeShipments = await usage(tx, clientId, shipments, shipments.clientId, shipments.orderTypeId, ids(removed.orderTypes));
  const methodOrders = await usage(
    tx,
    clientId,
    orders,
    orders.clientId,
    orders.preferredShippingMethodId,
    ids(removed.mainShippingMethods),
  );
  const methodShipments = await usage(tx, clientId, shipments, shipments.clientId, shipments.shippingMethodId, methodIds);
  const reasonItems = await usage(tx, clientId, returnItems, returnItems.clientId, returnItems.returnReasonId, ids(removed.returnReasons));
  const refuse = (list: ListName, entry: Stored, users: string[]) => {
    if (!users.length) return;
    problems.add(
      '409',
      `${entryWords[list][0]} ${entry.id} "${entry.code}" is used by ${users.join(' and ')}, so it cannot be removed: keep it in ${list} with "id": ${entry.id} (its code and name may change).`,
      { path: [list] },
    );
  };
  for (const t of removed.orderTypes)
    refuse('orderTypes', t, [...counted(typeOrders.get(t.id), 'order'), ...counted(typeShipments.get(t.id), 'shipment')]);
  for (const m of removed.mainShippingMethods) {
    const ownShipments = [m.id, ...ids(removedWarehouseMethods.filter((w) => w.mainShippingMethodId === m.id))].reduce(
      (sum, id) => sum + (methodShipments.get(id) ?? 0),
      0,
    );
    refuse('mainShippingMethods', m, [...counted(methodOrders.get(m.id), 'order'), ...counted(ownShipments, 'shipment')]);
  }
  for (const [id, { main, index }] of droppedWarehouses) {
    const count = methodShipments.get(id);
    const method = removedWarehouseMethods.find((w) => w.id === id)!;
    if (count) {
      problems.add(
        '409',
        `Warehouse ${method.warehouse} of main shipping method ${main.id} "${main.code}" is used by ${counted(count, 'shipment')[0]} (shipping method ${id} "${method.code}"), so it cannot be removed from its warehouses.`,
        { path: ['mainShippingMethods', index, 'warehouses'] },
      );
    }
  }
  for (const r of removed.returnReasons) refuse('returnReasons', r, counted(reasonItems.get(r.id), 'return item'));
}

type SimpleTable = typeof orderTypes | typeof shippingMethods | typeof languages | typeof countries | typeof returnReasons;

/** Deletes the removed rows, updates the kept ones that change, inserts the new ones. */
async function replaceRows<V extends Record<string, unknown>>(
  tx: Db,
  table: SimpleTable,
  removed: Stored[],
  stored: Record<string, unknown>[],
  entries: { id?: number | string; values: V }[],
) {
  if (removed.length)
    await tx.delete(table).where(
      inArray(
        table.id,
        removed.map((r) => r.id),
      ),
    );
  for (const entry of entries) {
    if (entry.id === undefined) continue;
    const id = Number(entry.id);
    const current = stored.find((r) => r.id === id)!;
    if (Object.entries(entry.values).some(([key, value]) => current[key] !== value))
      await tx.update(table).set(entry.values).where(eq(table.id, id));
  }
  const fresh = entries.filter((e) => e.id === undefined).map((e) => e.values);
  if (fresh.length) await tx.insert(table).values(fresh as never);
}

/** Main methods and, following each one's warehouses, its per-warehouse methods (code `<code>_<warehouse>`). */
async function replaceMainShippingMethods(
  tx: Db,
  clientId: number,
  entries: NonNullable<SettingsInput['mainShippingMethods']>,
  stored: ShippingMethodRow[],
  removedMains: Stored[],
  removedWarehouseMethods: ShippingMethodRow[],
) {
  const gone = [...removedMains.map((m) => m.id), ...removedWarehouseMethods.map((w) => w.id)];
  if (gone.length) await tx.delete(shippingMethods).where(inArray(shippingMethods.id, gone));
  for (const entry of entries) {
    const main = { clientId, kind: 'main' as const, code: entry.code, name: entry.name, carrier: entry.carrier };
    let mainId: number;
    if (entry.id === undefined) {
      [{ id: mainId }] = await tx.insert(shippingMethods).values(main).returning({ id: shippingMethods.id });
    } else {
      mainId = Number(entry.id);
      const current = stored.find((m) => m.id === mainId)!;
      if (current.code !== main.code || current.name !== main.name || current.carrier !== main.carrier)
        await tx.update(shippingMethods).set(main).where(eq(shippingMethods.id, mainId));
    }
    const fresh = [];
    for (const warehouse of entry.warehouses) {
      const values = {
        clientId,
        kind: 'warehouse' as const,
        code: `${entry.code}_${warehouse}`,
        name: `${entry.name} (${warehouse})`,
        carrier: entry.carrier,
        mainShippingMethodId: mainId,
        warehouse,
      };
      const current = stored.find((w) => w.kind === 'warehouse' && w.mainShippingMethodId === mainId && w.warehouse === warehouse);
      if (!current) fresh.push(values);
      else if (current.code !== values.code || current.name !== values.name || current.carrier !== values.carrier)
        await tx.update(shippingMethods).set(values).where(eq(shippingMethods.id, current.id));
    }
    if (fresh.length) await tx.insert(shippingMethods).values(fresh);
  }
}

/** Replaces the lists the input gives, in one transaction, and answers the settings as stored afterwards. */
export async function replaceSettings(db: Db, clientId: number, input: SettingsInput): Promise<SandboxSettings> {
  await db.transaction((tx) => applySettings(tx, clientId, input));
  return sandboxSettingsOf(db, clientId);
}
