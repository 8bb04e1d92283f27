// Addresses: the delivery and billing address of an order. Read alone and included in orders, through the SQL fast path.
import { Address, AddressAttributes } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import { self, type IdQuery, type ResourceObject } from './resource.ts';
import { columnsOf, resource, tableDocuments } from './sql.ts';

const { addresses } = schema;
type AddressRow = typeof addresses.$inferSelect;

/** The address from its row (its attributes are its columns): the definition the SQL below is held to. */
export function addressResource(a: AddressRow, base: string): ResourceObject {
  return {
    type: 'address',
    id: a.id,
    attributes: Object.fromEntries(Object.keys(AddressAttributes.properties).map((key) => [key, a[key as keyof AddressRow]])),
    links: self(base, 'addresses', a.id),
  };
}

export const addressSql = resource(Address, addresses.id, 'addresses', { attributes: columnsOf(addresses, AddressAttributes) });

/** The addresses whose ids `ids` selects, in id order. */
export const addressDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, addressSql, ids, base);
