// One description per resource type of the SQL fast path, from which both of its ways of being written come: the
// TypeScript mapper (a row and the ids it points to → the resource object, for answers made from rows a service
// returned) and the SQL expression (sql.ts: the resource object as JSON text, written by the database). A description
// names, for each of the contract's attributes, the column of the type's row it is read from, and for each
// relationship where its ids come from; a value is turned into JSON the same way on both sides, by its column's type
// (timestamps as Date#toISOString, jsonb shaped by its attribute's contract schema, everything else as it is). So a new
// attribute is one line here, and server/test/representation.test.ts holds the two ways equal on real rows.
import { getTableColumns } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TObject, TProperties, TSchema } from '@sinclair/typebox';
import { iso } from '../platform/time.ts';
import { many, one, self, type ResourceObject } from './resource.ts';
import { manyText, oneText, ownedOneText, resource, type ResourceSql, type SchemaNode } from './sql.ts';

/** A to-one relationship whose id is a column of the resource's row. */
interface ToOne<Key extends string> {
  kind: 'one';
  type: string;
  key: Key;
}
/**
 * A relationship held by another table: the rows whose `owner` column points to the resource. `one`: at most one such
 * row (`owner` is unique). The mapper is given their ids; the SQL reads them (sql.ts, grouped aggregates).
 */
interface Held {
  kind: 'heldOne' | 'heldMany';
  type: string;
  id: AnyPgColumn;
  owner: AnyPgColumn;
}
/** The relationship named `type`'s id is the row's column `key`. */
export const toOne = <Key extends string>(type: string, key: Key): ToOne<Key> => ({ kind: 'one', type, key });
/** The relationship is the row of `id`'s table whose `owner` column (unique) points to the resource. */
export const heldOne = (type: string, id: AnyPgColumn, owner: AnyPgColumn) =>
  ({ kind: 'heldOne', type, id, owner }) as const satisfies Held;
/** The relationship is the rows of `id`'s table whose `owner` column points to the resource, by id. */
export const heldMany = (type: string, id: AnyPgColumn, owner: AnyPgColumn) =>
  ({ kind: 'heldMany', type, id, owner }) as const satisfies Held;

/** Attributes whose names are their columns' keys (an address's, a pick-up point's): each read from the column of its name. */
export const byName = <A extends TProperties>(attributes: TObject<A>) =>
  Object.fromEntries(Object.keys(attributes.properties).map((name) => [name, name])) as { [K in keyof A & string]: K };

/** The contract's resource schema (contract/src/jsonapi.ts `Resource`): its attribute and relationship names. */
type Contract = TObject & { properties: { type: TSchema; attributes: TObject; relationships?: TObject } };
// A type the contract gives no relationships has them typed as any properties (string keys): it has none.
type Members<C extends Contract, Part extends 'attributes' | 'relationships'> =
  NonNullable<C['properties'][Part]> extends TObject<infer P extends TProperties>
    ? string extends keyof P
      ? never
      : keyof P & string
    : never;
type Relationship<Row> = ToOne<keyof Row & string> | Held;

type HeldNames<R> = { [K in keyof R]: R[K] extends Held ? K : never }[keyof R];
/** What the mapper is given besides the row: the ids of each relationship another table holds (`heldOne`: an id or null). */
export type HeldIds<R> = { [K in HeldNames<R>]: R[K] extends { kind: 'heldMany' } ? number[] : number | null };

/** A described resource type: its mapper and its SQL, both from the one description. */
export interface DescribedResource<Row, Ids> {
  /** The resource object from its row and the ids of the relationships other tables hold. */
  map(row: Row, ids: Ids, base: string): ResourceObject;
  sql: ResourceSql;
}

/** A row, or the ids of its relationships held by other tables, as the mapper reads them. */
type Values = Record<string, unknown>;

/**
 * A value of a jsonb column as the SQL writes it (sql.ts, fromJsonb): objects with the schema's members in the schema's
 * order (null where absent), arrays element by element, other values as they are. Made once per attribute.
 */
function shapeOf(schema: SchemaNode): (value: unknown) => unknown {
  const structured = (schema.anyOf ?? [schema]).find((branch) => branch.type === 'object' || branch.type === 'array');
  if (!structured) return (value) => value ?? null;
  let shaped: (value: unknown) => unknown;
  if (structured.type === 'object') {
    const members = structured.properties ?? {};
    const keys = Object.keys(members);
    const shapes = keys.map((key) => shapeOf(members[key]));
    const template: Values = Object.fromEntries(keys.map((key) => [key, null]));
    shaped = (value) => {
      const object = (value ?? {}) as Values;
      const result = { ...template };
      for (let index = 0; index < keys.length; index++) result[keys[index]] = shapes[index](object[keys[index]]);
      return result;
    };
  } else {
    const shapeItem = shapeOf(structured.items ?? ({} as SchemaNode));
    shaped = (value) => (Array.isArray(value) ? value.map(shapeItem) : []);
  }
  return schema.anyOf ? (value) => (value == null ? null : shaped(value)) : shaped;
}

/** How the mapper reads an attribute from the row, by its column's type (the SQL does the same, sql.ts columnJson). */
function readerOf(key: string, column: AnyPgColumn, schema: SchemaNode): (row: Values) => unknown {
  if (column.dataType === 'date') return (row) => iso(row[key] as Date | null);
  if (column.dataType === 'json') {
    const shape = shapeOf(schema);
    return (row) => shape(row[key]);
  }
  return (row) => row[key];
}

/** How the mapper reads a relationship: from the row's column, or from the ids it was given under the relationship's name. */
function relationshipReaderOf(name: string, relationship: Relationship<Values>): (row: Values, ids: Values) => unknown {
  if (relationship.kind === 'one') return (row) => one(relationship.type, row[relationship.key] as number | null);
  if (relationship.kind === 'heldOne') return (_row, ids) => one(relationship.type, ids[name] as number | null);
  return (_row, ids) => many(relationship.type, ids[name] as number[]);
}

/**
 * The mapper and the SQL of a resource type from its description: `contract`, its resource schema; `table`, its rows;
 * `path`, of its self links (/v3/{path}/{id}); every attribute of the contract from a column of the row, by the
 * column's key; every relationship. Both write the members in the contract's order, as the serializer does; the SQL is
 * rendered once, here, and so are the mapper's readers.
 */
export function describe<
  C extends Contract,
  T extends PgTable,
  R extends Record<Members<C, 'relationships'>, Relationship<T['$inferSelect']>>,
>(
  contract: C,
  table: T,
  path: string,
  description: {
    attributes: Record<Members<C, 'attributes'>, keyof T['$inferSelect'] & string>;
    relationships: R & Record<Exclude<keyof R, Members<C, 'relationships'>>, never>;
  },
): DescribedResource<T['$inferSelect'], HeldIds<R>> {
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  const type = (contract.properties.type as TSchema & { const: string }).const;
  const attributeSchemas = contract.properties.attributes.properties as Record<string, SchemaNode>;
  const attributes = description.attributes as Record<string, string>;
  const relationships = description.relationships as Record<string, Relationship<Values>>;
  const columnOf = (key: string) => {
    if (!columns[key]) throw new Error(`${type}: ${key} is not a column of its table`);
    return columns[key];
  };

  const attributeNames = Object.keys(attributeSchemas);
  const attributeReaders = attributeNames.map((name) => readerOf(attributes[name], columnOf(attributes[name]), attributeSchemas[name]));
  const relationshipNames = Object.keys(contract.properties.relationships?.properties ?? {});
  const relationshipReaders = relationshipNames.map((name) => relationshipReaderOf(name, relationships[name]));
  // Each object is a copy of one with every member (null) in the contract's order, then filled: objects built member by
  // member under names known only at run time took a slow store for each, several times the hand-written mapper's time.
  const attributesTemplate: Values = Object.fromEntries(attributeNames.map((name) => [name, null]));
  const relationshipsTemplate: Values = Object.fromEntries(relationshipNames.map((name) => [name, null]));

  const sqlOf = (relationship: Relationship<Values>) => {
    if (relationship.kind === 'one') return oneText(relationship.type, columnOf(relationship.key));
    return (relationship.kind === 'heldOne' ? ownedOneText : manyText)(relationship.type, relationship.id, relationship.owner);
  };
  const sql = resource(contract, columnOf('id'), path, {
    attributes: Object.fromEntries(Object.entries(attributes).map(([name, key]) => [name, columnOf(key)])),
    // None for a type the contract gives none (so none is written); any given is checked against the contract's.
    ...(Object.keys(relationships).length
      ? { relationships: Object.fromEntries(Object.entries(relationships).map(([name, relationship]) => [name, sqlOf(relationship)])) }
      : {}),
  });

  return {
    sql,
    map(row, ids, base) {
      const values = row as Values;
      const id = values.id as number;
      const attributeValues = { ...attributesTemplate };
      for (let index = 0; index < attributeNames.length; index++) attributeValues[attributeNames[index]] = attributeReaders[index](values);
      if (!relationshipNames.length) return { type, id, attributes: attributeValues, links: self(base, path, id) };
      const relationshipValues = { ...relationshipsTemplate };
      for (let index = 0; index < relationshipNames.length; index++)
        relationshipValues[relationshipNames[index]] = relationshipReaders[index](values, ids as Values);
      return { type, id, attributes: attributeValues, relationships: relationshipValues, links: self(base, path, id) };
    },
  };
}
