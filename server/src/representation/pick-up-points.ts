// Pick-up points: where an order's parcel goes. Read alone and included in orders, through the SQL fast path.
import { PickUpPoint, PickUpPointAttributes } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import { self, type IdQuery, type ResourceObject } from './resource.ts';
import { columnsOf, resource, tableDocuments } from './sql.ts';

const { pickUpPoints } = schema;
type PickUpPointRow = typeof pickUpPoints.$inferSelect;

/** The pick-up point from its row (its attributes are its columns): the definition the SQL below is held to. */
export function pickUpPointResource(p: PickUpPointRow, base: string): ResourceObject {
  return {
    type: 'pickUpPoint',
    id: p.id,
    attributes: Object.fromEntries(Object.keys(PickUpPointAttributes.properties).map((key) => [key, p[key as keyof PickUpPointRow]])),
    links: self(base, 'pickUpPoints', p.id),
  };
}

export const pickUpPointSql = resource(PickUpPoint, pickUpPoints.id, 'pickUpPoints', {
  attributes: columnsOf(pickUpPoints, PickUpPointAttributes),
});

/** The pick-up points whose ids `ids` selects, in id order. */
export const pickUpPointDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, pickUpPointSql, ids, base);
