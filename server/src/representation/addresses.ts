// Addresses: the delivery and billing address of an order. Read alone and included in orders, through the SQL fast path.
import { Address, AddressAttributes } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { byName, describe } from './description.ts';
import { tableDocuments } from './sql.ts';

const { addresses } = schema;
type AddressRow = typeof addresses.$inferSelect;

/** The address: its attributes are its columns of the same names; its mapper and its SQL both come from here. */
const address = describe(Address, addresses, 'addresses', { attributes: byName(AddressAttributes), relationships: {} });

/** The address from its row (server/test/representation.test.ts holds it to the SQL on real rows). */
export const addressResource = (a: AddressRow, base: string): ResourceObject => address.map(a, {}, base);
export const addressSql = address.sql;

/** The addresses whose ids `ids` selects, in id order. */
export const addressDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, addressSql, ids, base);
