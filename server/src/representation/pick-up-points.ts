// Pick-up points: where an order's parcel goes. Read alone and included in orders, through the SQL fast path.
import { PickUpPoint, PickUpPointAttributes } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { byName, describe } from './description.ts';
import { tableDocuments } from './sql.ts';

const { pickUpPoints } = schema;
type PickUpPointRow = typeof pickUpPoints.$inferSelect;

/** The pick-up point: its attributes are its columns of the same names; its mapper and its SQL both come from here. */
const pickUpPoint = describe(PickUpPoint, pickUpPoints, 'pickUpPoints', { attributes: byName(PickUpPointAttributes), relationships: {} });

/** The pick-up point from its row (server/test/representation.test.ts holds it to the SQL on real rows). */
export const pickUpPointResource = (p: PickUpPointRow, base: string): ResourceObject => pickUpPoint.map(p, {}, base);
export const pickUpPointSql = pickUpPoint.sql;

/** The pick-up points whose ids `ids` selects, in id order. */
export const pickUpPointDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, pickUpPointSql, ids, base);
