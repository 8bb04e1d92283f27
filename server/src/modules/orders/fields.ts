// The order's own fields that a client sets, in one table: for each, how an order is placed with it and how an update
// writes it. The rest of the module is made from this table: `OrderFields` (what placeOrder and updateOrder take),
// the values the placing statement carries, its column lists and its jsonb_to_record definition (repository.ts), and
// what updateOrder sets. A new order field is one line here, beside its column (platform/db/schema/orders.ts) and what
// the APIs make of it (the contract, the representation's description of an order).
import { defaults, type WarehouseCode } from '@shopapi/contract';
import type { schema } from '../../platform/db/index.ts';

type OrderRow = typeof schema.orders.$inferSelect;
/** Free fields extra1..extra5. */
type Metadata = Record<string, string | null>;

/** How one field is written when an order is placed: from what the client gave (undefined: left out). */
interface PlacedField<Given, Placed, Required extends boolean = false> {
  required: Required;
  placed(given: Given): Placed;
}
/** A field an update writes too: from what the client gave and the stored value. */
interface OrderField<Given, Placed, Stored, Required extends boolean = false> extends PlacedField<Given, Placed, Required> {
  changed(given: Given, stored: Stored): Stored;
}

/** Given on create and on update, written as given. */
const required = <T>(): OrderField<T, T, T, true> => ({ required: true, placed: (given) => given, changed: (given) => given });
/** Optional: left out, null when placed and kept by an update; null erases it. */
const optional = <T>(): OrderField<T | null | undefined, T | null, T | null> => ({
  required: false,
  placed: (given) => given ?? null,
  changed: (given, stored) => (given === undefined ? stored : given),
});
/** Optional text that an empty string erases: left out or empty, null when placed; left out, kept by an update. */
const erasable = (): OrderField<string | null | undefined, string | null, string | null> => ({
  required: false,
  placed: (given) => given || null,
  changed: (given, stored) => (given === '' ? null : (given ?? stored)),
});
/** Optional with a default: left out (or null, where `Given` allows it), the default, when placed and when changed. */
const withDefault = <Given>(value: NonNullable<Given>): OrderField<Given | undefined, NonNullable<Given>, NonNullable<Given>> => ({
  required: false,
  placed: (given) => given ?? value,
  changed: (given) => given ?? value,
});
/** Written when the order is placed only: updateOrder refuses another value, or works the new one out itself. */
const placedOnly = <Given, Placed>({ required, placed }: PlacedField<Given, Placed>): PlacedField<Given, Placed> => ({ required, placed });

/** A date (2024-05-01: midnight UTC) or a date-time. */
function orderedOnOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/** By column key of the orders table, in the order the placing statement writes them. */
const orderFields = {
  externalOrderNumber: required<string>(),
  locale: required<string>(),
  reference: erasable(),
  // Placed as ISO 8601 text in the statement's JSON; stored as a timestamp.
  orderedOn: {
    required: false,
    placed: (given: string | null | undefined) => orderedOnOf(given)?.toISOString() ?? null,
    changed: (given: string | null | undefined, stored: Date | null) => (given === undefined ? stored : orderedOnOf(given)),
  },
  consumerReference: erasable(),
  promotionCode: erasable(),
  email: withDefault<string | null>(defaults.noReplyEmail),
  phoneNumber: optional<string>(),
  vatNumber: optional<string>(),
  fulfillFrom: optional<WarehouseCode>(),
  preferredShippingDate: optional<string>(),
  // An update reads null as the order type's default (updateOrder).
  allowPartialDelivery: placedOnly(withDefault<boolean | null>(defaults.allowPartialDelivery)),
  onHold: withDefault<boolean>(defaults.onHold),
  metadata: withDefault<Metadata | null>(Object.freeze({})),
  channelIdentifier: placedOnly(optional<string>()),
  currency: placedOnly(withDefault<string | null>(defaults.currency)),
} satisfies {
  // Each key a column of orders; what an update writes, of the column's type.
  [K in keyof OrderRow]?: PlacedField<never, unknown, boolean> & { changed?(given: never, stored: OrderRow[K]): OrderRow[K] };
};

type Fields = typeof orderFields;
type FieldName = keyof Fields;
type RequiredName = { [K in FieldName]: Fields[K]['required'] extends true ? K : never }[FieldName];
type ChangedName = { [K in FieldName]: Fields[K] extends { changed: unknown } ? K : never }[FieldName];
type Given<K extends FieldName> = Parameters<Fields[K]['placed']>[0];

/** The fields of an order a client sets; absent ones take their defaults on create. */
export type OrderFields = { [K in RequiredName]: Given<K> } & { [K in Exclude<FieldName, RequiredName>]?: Given<K> };
/** The values an order is placed with, by column key (as the placing statement's JSON carries them). */
export type PlacedFields = { [K in FieldName]: ReturnType<Fields[K]['placed']> };
/** The columns an update writes, by column key. */
export type ChangedFields = { [K in ChangedName]: OrderRow[K] };

/** The table's column keys, in its order: the placing statement's lists are made from them once (repository.ts). */
export const placedColumnKeys = Object.keys(orderFields) as readonly FieldName[];
const fieldsInOrder = Object.values(orderFields) as (PlacedField<unknown, unknown, boolean> &
  Partial<OrderField<unknown, unknown, unknown, boolean>>)[];
const changedKeys = placedColumnKeys.filter((_, index) => fieldsInOrder[index].changed);
// Each object is a copy of one with every member (null) in the table's order, then filled: objects built member by
// member under names known only at run time took a slow store for each, about twenty times the object literal's time.
const placedTemplate: Readonly<Record<string, unknown>> = Object.fromEntries(placedColumnKeys.map((key) => [key, null]));
const changedTemplate: Readonly<Record<string, unknown>> = Object.fromEntries(changedKeys.map((key) => [key, null]));

/** What an order is placed with, from what the client gave. */
export function placedFields(given: OrderFields): PlacedFields {
  const values = { ...placedTemplate };
  for (let index = 0; index < placedColumnKeys.length; index++) {
    const key = placedColumnKeys[index];
    values[key] = fieldsInOrder[index].placed(given[key]);
  }
  return values as PlacedFields;
}

/** What an update writes, from what the client gave and the order as stored; the fields written when placed only are left out. */
export function changedFields(given: OrderFields, stored: OrderRow): ChangedFields {
  const values = { ...changedTemplate };
  for (let index = 0; index < placedColumnKeys.length; index++) {
    const key = placedColumnKeys[index];
    const { changed } = fieldsInOrder[index];
    if (changed) values[key] = changed(given[key], stored[key]);
  }
  return values as ChangedFields;
}
