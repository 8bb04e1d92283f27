// The SQL fast path of the v3 representation: resource objects written as JSON text by the database. The order and
// shipment list pages are the hottest reads of the API: one statement per page gives the data and the included
// resources as the text that is sent, where mapping rows in the server cost several queries, a driver parse of every
// column, a mapping pass and a serialization (bench/RESULTS.md, findings). The resource types that use it (orders,
// order items, addresses, pick-up points, shipments, shipment items) declare their expression in their own module
// with `resource` below; each of those modules also has the TypeScript mapper the expression is tested against.
//
// The JSON is concatenated text rather than json_build_object: PostgreSQL looks up the type of every argument of
// json_build_object on every call, which made the nested identifiers of a page cost four times as much. Strings go
// through to_json (escaping); integers and booleans through their text form, which is JSON already; numerics without
// trailing zeros (trim_scale), and jsonb rebuilt member by member in the contract's order (see fromJsonb).
//
// A resource is the same bytes wherever it appears: these pages are sent as the database writes them, single reads
// go through the response serializer (the contract's property order, JSON.stringify's spelling of strings and
// numbers). So every object here is written in the contract's property order and compact, like the serializer.
//
// The resource expressions are rendered to SQL text once; a request only adds its own page query and the base of
// its links (a `request` CTE the expressions read, so they carry no parameters).
import { getTableColumns, getTableName, is, sql, SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TObject, TSchema } from '@sinclair/typebox';
import { limits } from '@shopapi/contract';
import { dialect, queryRows, type Db } from '../../../platform/db/index.ts';
import type { IdQuery, ResourceObject } from './resource.ts';

/** A column (turned into JSON text by its type) or an SQL expression that is JSON text already, never NULL. */
type Value = SQL | AnyPgColumn;

/** A constant of this file as an SQL string literal; never a value from a request. */
const text = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);
/** The same text as Date#toISOString (milliseconds, UTC, Z), quoted; both truncate microseconds. */
export const isoText = (column: AnyPgColumn) =>
  sql`coalesce('"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
function json(value: Value): SQL {
  if (is(value, SQL)) return value;
  switch (value.dataType) {
    // numeric(14,2) prints 12.50 where JSON.stringify prints 12.5.
    case 'number':
      return value.getSQLType().startsWith('numeric')
        ? sql`coalesce(trim_scale(${value})::text, 'null')`
        : sql`coalesce(${value}::text, 'null')`;
    case 'boolean':
      return sql`coalesce(${value}::text, 'null')`;
    case 'date':
      return isoText(value);
    default:
      return sql`coalesce(to_json(${value})::text, 'null')`;
  }
}
function object(fields: Record<string, Value>): SQL {
  const members = Object.entries(fields).map(
    ([key, value], index) => sql`${text(`${index ? ',' : '{'}${JSON.stringify(key)}:`)} || ${json(value)}`,
  );
  return members.length ? sql`(${sql.join(members, sql` || `)} || '}')` : text('{}');
}
export const identifierText = (type: string, id: AnyPgColumn) => sql`${text(`{"type":${JSON.stringify(type)},"id":`)} || ${id} || '}'`;
export const oneText = (type: string, id: AnyPgColumn) =>
  sql`case when ${id} is null then '{"data":null}' else '{"data":' || ${identifierText(type, id)} || '}' end`;
/** A to-many relationship: the ids of the rows of `id`'s table whose `owner` column points to `ownerId`, by id. */
export const manyText = (type: string, id: AnyPgColumn, owner: AnyPgColumn, ownerId: AnyPgColumn) =>
  sql`'{"data":[' || coalesce((select string_agg(${identifierText(type, id)}, ',' order by ${id}) from ${id.table} where ${owner} = ${ownerId}), '') || ']}'`;

type SchemaNode = TSchema & { type?: string; properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[] };
let elementAliases = 0;
/**
 * A jsonb value as JSON text shaped by its contract schema: objects with the schema's members in the schema's order
 * (null where absent), arrays element by element, scalars in jsonb's text (JSON). jsonb's own text form orders keys by
 * length and puts a space after every `:` and `,`, so `::text` of a whole object differs from the serializer's bytes.
 */
function fromJsonb(value: SQL, schema: SchemaNode): SQL {
  const structured = (schema.anyOf ?? [schema]).find((branch) => branch.type === 'object' || branch.type === 'array');
  if (!structured) return sql`coalesce((${value})::text, 'null')`;
  const shaped =
    structured.type === 'object'
      ? object(
          Object.fromEntries(
            Object.entries(structured.properties ?? {}).map(([key, member]) => [key, fromJsonb(sql`(${value} -> ${text(key)})`, member)]),
          ),
        )
      : arrayFromJsonb(value, structured.items ?? ({} as SchemaNode));
  return schema.anyOf ? sql`case when coalesce(jsonb_typeof(${value}), 'null') = 'null' then 'null' else ${shaped} end` : shaped;
}
function arrayFromJsonb(value: SQL, items: SchemaNode): SQL {
  const alias = sql.raw(`element_${++elementAliases}`);
  return sql`case when jsonb_typeof(${value}) = 'array' then coalesce((select '[' || string_agg(${fromJsonb(sql`${alias}.value`, items)}, ',' order by ${alias}.position) || ']' from jsonb_array_elements(${value}) with ordinality as ${alias}(value, position)), '[]') else '[]' end`;
}
/** The attributes of a resource whose names are its table's column names: the contract's list, each from its column. */
export function columnsOf(table: PgTable, attributes: TObject): Record<string, AnyPgColumn> {
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  return Object.fromEntries(
    Object.keys(attributes.properties).map((key) => {
      if (!columns[key]) throw new Error(`the contract's ${key} has no column in ${getTableName(table)}`);
      return [key, columns[key]];
    }),
  );
}

/**
 * A resource object: type, id, attributes, relationships and links. Its attribute and relationship names must be the
 * contract's, exactly: the list pages send this JSON as it comes from the database, without the response schema's
 * serializer in between, so a name added on one side only stops the server at start instead of reaching clients.
 */
export function resource(
  contract: TObject,
  id: AnyPgColumn,
  path: string,
  parts: { attributes: Record<string, Value>; relationships?: Record<string, Value> },
): SQL {
  const type = (contract.properties.type as unknown as { const: string }).const;
  const members = (part: 'attributes' | 'relationships') =>
    ((contract.properties[part] as TObject | undefined)?.properties ?? {}) as Record<string, SchemaNode>;
  for (const part of ['attributes', 'relationships'] as const) {
    const expected = Object.keys(members(part)).sort().join();
    const built = Object.keys(parts[part] ?? {})
      .sort()
      .join();
    if (built !== expected) throw new Error(`${type} ${part}: built [${built}], the contract has [${expected}]`);
  }
  // In the contract's order, as the serializer writes single reads; a jsonb column takes the shape of its attribute.
  const inContractOrder = (part: 'attributes' | 'relationships', built: Record<string, Value>) =>
    object(
      Object.fromEntries(
        Object.entries(members(part)).map(([key, member]) => {
          const value = built[key];
          return [key, !is(value, SQL) && value.dataType === 'json' ? fromJsonb(sql`${value}`, member) : value];
        }),
      ),
    );
  return object({
    type: text(JSON.stringify(type)),
    id,
    attributes: inContractOrder('attributes', parts.attributes),
    ...(parts.relationships ? { relationships: inContractOrder('relationships', parts.relationships) } : {}),
    // The request CTE holds the base as the start of a JSON string (quoted and escaped, no closing quote).
    links: sql`'{"self":' || (select base from request) || ${text(`/v3/${path}/`)} || ${id} || '"}'`,
  });
}

/** A resource expression as SQL text, rendered once with the casing the database handles use. */
export function rendered(name: string, expression: SQL): SQL {
  const query = dialect.sqlToQuery(expression);
  if (query.params.length) throw new Error(`the ${name} expression must not bind parameters`);
  return sql.raw(query.sql);
}

interface Documents {
  data: ResourceObject[];
  included: ResourceObject[];
}
/**
 * A list page as the database wrote it: JSON text, the ids on the page for its pagination links, and whether the page
 * ended early because the items it includes reached `limits.includedItemsMaxPerPage`.
 */
export interface PageText {
  data: string;
  included: string;
  ids: { id: number }[];
  cut: boolean;
}

/** `data`: the resources as JSON text; `included`: rows (resource, owner, part, id), grouped by owner and part. */
export interface Parts {
  data: SQL;
  included: SQL[];
}

/**
 * The rows `ids` selects, up to the last one whose items (rows of `owner`'s table) still fit in
 * `limits.includedItemsMaxPerPage` together with those before it; the first row always stays. `candidates` is how many
 * rows `ids` selected, so the statement can tell whether the page was cut.
 */
const cutByItems = (ids: IdQuery, owner: AnyPgColumn) => sql`select id, candidates from (
    select id, count(*) over () as candidates, row_number() over (order by id) as position,
           sum(items) over (order by id rows unbounded preceding) as running
    from (select c.id, (select count(*) from ${owner.table} where ${owner} = c.id) as items from (${ids}) as c) as counted
  ) as cut where position = 1 or running <= ${sql.raw(String(limits.includedItemsMaxPerPage))}`;

function statement(base: string, ids: IdQuery, { data, included }: Parts, itemsOwner?: AnyPgColumn): SQL {
  const none = sql`select null::text, 0, 0, 0 where false`;
  const openLink = JSON.stringify(base).slice(0, -1);
  const page = itemsOwner ? cutByItems(ids, itemsOwner) : ids;
  const cut = itemsOwner ? sql`(select coalesce(max(candidates), 0) > count(*) from page)` : sql`false`;
  return sql`with request(base) as (select ${openLink}::text), page as (${page})
    select ${data} as data,
           coalesce((select '[' || string_agg(x.resource, ',' order by x.owner, x.part, x.id) || ']' from (${sql.join(included.length ? included : [none], sql` union all `)}) as x(resource, owner, part, id)), '[]') as included,
           (select coalesce(json_agg(json_build_object('id', id) order by id), '[]'::json) from page) as ids,
           ${cut} as cut`;
}

export async function pageText(db: Db, base: string, ids: IdQuery, parts: Parts, itemsOwner?: AnyPgColumn): Promise<PageText> {
  const [row] = await queryRows<PageText>(db, statement(base, ids, parts, itemsOwner));
  return row;
}

export async function documents(db: Db, base: string, ids: IdQuery, parts: Parts): Promise<Documents> {
  const page = await pageText(db, base, ids, parts);
  return { data: JSON.parse(page.data) as ResourceObject[], included: JSON.parse(page.included) as ResourceObject[] };
}

/** The bytes of a document whose members are JSON text already (the list pages: the database's JSON is sent as it is). */
export const documentBody = (members: Record<string, string>) =>
  Buffer.from(
    `{${Object.entries(members)
      .map(([name, json]) => `${JSON.stringify(name)}:${json}`)
      .join(',')}}`,
  );

export const inPage = (column: AnyPgColumn) => sql`${column} in (select id from page)`;

/** The resources of `id`'s table on the page, as a JSON array in id order. */
export const pageArray = (expression: SQL, id: AnyPgColumn) =>
  sql`coalesce((select '[' || string_agg(${expression}, ',' order by ${id}) || ']' from ${id.table} where ${inPage(id)}), '[]')`;

/** The resources of one table whose ids `ids` selects, in id order, with nothing included. */
export async function tableDocuments(db: Db, expression: SQL, id: AnyPgColumn, ids: IdQuery, base: string): Promise<ResourceObject[]> {
  return (await documents(db, base, ids, { data: pageArray(expression, id), included: [] })).data;
}
