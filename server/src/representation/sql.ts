// The SQL fast path of the v3 representation: resource objects written as JSON text by the database. The order and
// shipment list pages are the hottest reads of the API: one statement per page gives the data and the included
// resources as the text that is sent, where mapping rows in the server cost several queries, a driver parse of every
// column, a mapping pass and a serialization (bench/RESULTS.md, findings). The resource types that use it (orders,
// order items, addresses, pick-up points, shipments, shipment items) describe themselves in their own module with
// `describe` (description.ts), which makes both their TypeScript mapper and, through `resource` below, their expression.
//
// The JSON is concatenated text rather than json_build_object: PostgreSQL looks up the type of every argument of
// json_build_object on every call, which made the nested identifiers of a page cost four times as much. Strings go
// through to_json (escaping); integers and booleans through their text form, which is JSON already; numerics without
// trailing zeros (trim_scale), and jsonb rebuilt member by member in the contract's order (see fromJsonb). Adjacent
// constants are merged into one literal, so a resource is one `||` chain with a term per value.
//
// Relationships to other tables' rows (an order's items, attachments and pick-up point, a shipment's items) come from
// one grouped aggregate per table over the page's ids, joined to the page by id: a subquery per resource and
// relationship cost PostgreSQL an index scan and a sort each, half of a page's time. The aggregates are materialized
// CTEs: a prepared statement's generic plan guesses a page of one row and joins by nested loop, which would otherwise
// aggregate the whole page again for each of its resources.
//
// A resource is the same bytes wherever it appears: these pages are sent as the database writes them, single reads
// go through the response serializer (the contract's property order, JSON.stringify's spelling of strings and
// numbers). So every object here is written in the contract's property order and compact, like the serializer.
//
// The resource expressions are rendered to SQL text once, and so is the statement of each kind of page around its
// page query; a request only renders its own page query and binds the base of its links (a `request` CTE the
// expressions read, so they carry no parameters). Orders and order items are written by their expressions into stored
// text on every write instead (stored.ts); their pages read that text and put the base into its links.
import { is, sql, SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TObject, TSchema } from '@sinclair/typebox';
import { limits } from '@shopapi/contract';
import { dialect, queryText, type Db } from '../platform/db/index.ts';
import type { IdQuery, ResourceObject } from './resource.ts';

/** JSON text in parts: constants of this file (never a value from a request) and SQL expressions of type text. */
type Piece = string | SQL;

/** A relationship read from the rows of another table whose `owner` column points to the resource (see `joins`). */
interface Related {
  related: 'many' | 'one';
  type: string;
  id: AnyPgColumn;
  owner: AnyPgColumn;
}
/** A column (turned into JSON text by its type), an SQL expression that is JSON text already (never NULL), or a relationship to another table. */
type Value = SQL | AnyPgColumn | Related;

const isRelated = (value: Value): value is Related => !is(value, SQL) && 'related' in value;

/** A constant of this file as an SQL string literal; never a value from a request. */
const text = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** The pieces as one text expression: adjacent constants merged, the rest joined with `||`. */
function concatenated(pieces: Piece[]): SQL {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged.length - 1;
    if (typeof piece === 'string' && typeof merged[last] === 'string') merged[last] += piece;
    else merged.push(piece);
  }
  const [only] = merged;
  if (merged.length === 1) return typeof only === 'string' ? text(only) : only;
  return sql`(${sql.join(
    merged.map((piece) => (typeof piece === 'string' ? text(piece) : piece)),
    sql` || `,
  )})`;
}

/** The same text as Date#toISOString (milliseconds, UTC, Z), quoted; both truncate microseconds. */
const isoText = (column: AnyPgColumn) =>
  sql`coalesce('"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
/** A column's value as JSON text (its text form where that is JSON), `null` for NULL. */
function columnJson(column: AnyPgColumn): SQL {
  const orNull = (value: SQL) => (column.notNull ? value : sql`coalesce(${value}, 'null')`);
  switch (column.dataType) {
    // numeric(14,2) prints 12.50 where JSON.stringify prints 12.5.
    case 'number':
      return orNull(column.getSQLType().startsWith('numeric') ? sql`trim_scale(${column})::text` : sql`${column}::text`);
    case 'boolean':
      return orNull(sql`${column}::text`);
    case 'date':
      return isoText(column);
    default:
      return orNull(sql`to_json(${column})::text`);
  }
}
function object(fields: Record<string, Piece[]>): Piece[] {
  const entries = Object.entries(fields);
  if (!entries.length) return ['{}'];
  return [...entries.flatMap(([key, value], index) => [`${index ? ',' : '{'}${JSON.stringify(key)}:`, ...value]), '}'];
}
const identifier = (type: string, id: SQL | AnyPgColumn): Piece[] => [`{"type":${JSON.stringify(type)},"id":`, sql`${id}::text`, '}'];
/** A to-one relationship whose id is a column of the resource's row. */
export const oneText = (type: string, id: AnyPgColumn) =>
  sql`case when ${id} is null then '{"data":null}' else ${concatenated(['{"data":', ...identifier(type, id), '}'])} end`;
/** A to-many relationship: the rows of `id`'s table whose `owner` column points to the resource, by id. */
export const manyText = (type: string, id: AnyPgColumn, owner: AnyPgColumn): Related => ({ related: 'many', type, id, owner });
/** A to-one relationship held by the other side: the row of `id`'s table whose `owner` column (unique) points to the resource. */
export const ownedOneText = (type: string, id: AnyPgColumn, owner: AnyPgColumn): Related => ({ related: 'one', type, id, owner });

export type SchemaNode = TSchema & { type?: string; properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[] };
/**
 * A jsonb value as JSON text shaped by its contract schema: objects with the schema's members in the schema's order
 * (null where absent), arrays element by element, scalars in jsonb's text (JSON). jsonb's own text form orders keys by
 * length and puts a space after every `:` and `,`, so `::text` of a whole object differs from the serializer's bytes.
 * `depth`: how many arrays it sits in, so an array's element alias differs from those of the arrays around it.
 */
function fromJsonb(value: SQL, schema: SchemaNode, depth = 0): SQL {
  const structured = (schema.anyOf ?? [schema]).find((branch) => branch.type === 'object' || branch.type === 'array');
  if (!structured) return sql`coalesce((${value})::text, 'null')`;
  const shaped =
    structured.type === 'object'
      ? concatenated(
          object(
            Object.fromEntries(
              Object.entries(structured.properties ?? {}).map(([key, member]) => [
                key,
                [fromJsonb(sql`(${value} -> ${text(key)})`, member, depth)],
              ]),
            ),
          ),
        )
      : arrayFromJsonb(value, structured.items ?? ({} as SchemaNode), depth);
  return schema.anyOf ? sql`case when coalesce(jsonb_typeof(${value}), 'null') = 'null' then 'null' else ${shaped} end` : shaped;
}
function arrayFromJsonb(value: SQL, items: SchemaNode, depth: number): SQL {
  const alias = sql.raw(`element_${depth + 1}`);
  return sql`case when jsonb_typeof(${value}) = 'array' then coalesce((select '[' || string_agg(${fromJsonb(sql`${alias}.value`, items, depth + 1)}, ',' order by ${alias}.position) || ']' from jsonb_array_elements(${value}) with ordinality as ${alias}(value, position)), '[]') else '[]' end`;
}
/**
 * A resource type's SQL, rendered once: `json`, the resource object of a row of `id`'s table as JSON text, and the
 * grouped aggregates its relationships to other tables read (`related`, CTEs, and their `joins`). Those aggregate over
 * the page's ids, so a type with relationships to other tables is written only as the data of a page (`pageRows`);
 * an included type has none.
 */
export interface ResourceSql {
  id: AnyPgColumn;
  json: SQL;
  related?: {
    ctes: SQL;
    joins: SQL;
    /**
     * The same CTEs over other rows than the page's: `rowsOf` gives the FROM clause of each related table's rows
     * (stored.ts: the rows of the ids a trigger was given, or the rows a create statement wrote).
     */
    ctesFrom(rowsOf: RowsOf): SQL;
  };
}
/**
 * The FROM clause (with its WHERE) of the rows of a relationship's table that belong to the resources being written;
 * the expressions name the table's columns by the table's name, so another relation stands in under that name.
 */
export type RowsOf = (table: PgTable, owner: AnyPgColumn) => SQL;
const ownedByPage: RowsOf = (table, owner) => sql`from ${table} where ${owner} in (select id from page)`;

/** One grouped aggregate per relationship held by another table, over the page's ids, joined by the resource's id. */
function joined(name: string, { related, type, id, owner }: Related, resourceId: AnyPgColumn, rowsOf: RowsOf) {
  const alias = sql.raw(`"related_${name}"`);
  const rows = rowsOf(id.table, owner);
  const join = sql`left join ${alias} on ${alias}.owner = ${resourceId}`;
  // The identifiers come sorted from a subquery instead of `string_agg(... order by id)`, which sorts each group on its
  // own (PostgreSQL 15): a hundred small sorts cost more than the rest of the page. string_agg takes its rows in the
  // subquery's order, sorted by owner and id, which grouping by owner keeps.
  if (related === 'many')
    return {
      cte: sql`${alias} as materialized (select owner, string_agg(identifier, ',') as json from (select ${owner} as owner, ${concatenated(identifier(type, id))} as identifier ${rows} order by ${owner}, ${id}) as sorted group by owner)`,
      join,
      value: concatenated(['{"data":[', sql`coalesce(${alias}.json, '')`, ']}']),
    };
  return {
    cte: sql`${alias} as materialized (select ${owner} as owner, ${id} as id ${rows})`,
    join,
    value: sql`case when ${alias}.id is null then '{"data":null}' else ${concatenated(['{"data":', ...identifier(type, sql`${alias}.id`), '}'])} end`,
  };
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
): ResourceSql {
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
  const related: Related[] = [];
  const names: string[] = [];
  // In the contract's order, as the serializer writes single reads; a jsonb column takes the shape of its attribute.
  const inContractOrder = (part: 'attributes' | 'relationships', built: Record<string, Value>) =>
    object(
      Object.fromEntries(
        Object.entries(members(part)).map(([key, member]): [string, Piece[]] => {
          const value = built[key];
          if (isRelated(value)) {
            related.push(value);
            names.push(key);
            return [key, [joined(key, value, id, ownedByPage).value]];
          }
          if (is(value, SQL)) return [key, [value]];
          return [key, [value.dataType === 'json' ? fromJsonb(sql`${value}`, member) : columnJson(value)]];
        }),
      ),
    );
  const json = concatenated(
    object({
      type: [JSON.stringify(type)],
      id: [columnJson(id)],
      attributes: inContractOrder('attributes', parts.attributes),
      ...(parts.relationships ? { relationships: inContractOrder('relationships', parts.relationships) } : {}),
      // The request CTE holds the base as the start of a JSON string (quoted and escaped, no closing quote).
      links: ['{"self":', sql`(select base from request)`, `/v3/${path}/`, sql`${id}::text`, '"}'],
    }),
  );
  if (!related.length) return { id, json: rendered(type, json) };
  const aggregates = (rowsOf: RowsOf) => related.map((r, index) => joined(names[index], r, id, rowsOf));
  const ctesFrom = (rowsOf: RowsOf) =>
    rendered(
      type,
      sql.join(
        aggregates(rowsOf).map((r) => r.cte),
        sql`, `,
      ),
    );
  const joins = sql.join(
    aggregates(ownedByPage).map((r) => r.join),
    sql` `,
  );
  return { id, json: rendered(type, json), related: { ctes: ctesFrom(ownedByPage), joins: rendered(type, joins), ctesFrom } };
}

/** A resource expression as SQL text, rendered once with the casing the database handles use. */
function rendered(name: string, expression: SQL): SQL {
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

/**
 * A kind of page: `data`, rows (resource, id) of the page's resources; `included`, rows (resource, owner, part, id),
 * sent by owner, part and id (on a page of stored JSON the owner is a resource of the page: it gives the chunk);
 * `itemsOwner`, when the page includes items, the column of the items' table that points to the page's resources, so
 * the page can end early (`cutByItems`).
 */
export interface Parts {
  data: SQL;
  included: SQL[];
  itemsOwner?: AnyPgColumn;
  /** Some of the text is stored resource JSON (stored.ts), whose links start with `storedBaseMarker` instead of the base. */
  stored?: boolean;
}

/**
 * Where the base of a link starts in stored resource JSON (stored.ts): a control character, which JSON text written by
 * the database never holds unescaped (to_json and jsonb's text escape every character below U+0020), so replacing it
 * cannot touch a value.
 */
const storedBaseMarker = '\u0001';
const markerChar = sql.raw(`chr(${storedBaseMarker.charCodeAt(0)})`);
/** The request CTE of stored JSON: its links open with the marker where a page's open with the quoted base. */
export const storedRequest = sql`request(base) as (select '"' || ${markerChar})`;

/**
 * How many of a page's resources one row of its statement carries, with what they include: about 10 KiB of JSON for
 * orders with a few items each (see statementOf).
 */
const chunkSize = 10;
/**
 * The chunk of the page a resource (or what it includes) is in, from the position of its id on the page: found in the
 * array of the page's ids (`positions`) rather than by joining the page, which the generic plans made nested loops
 * over the page for every row (a shipment page in chunks so joined took PGlite twice its time under load).
 */
const chunkOf = (id: SQL) => sql`(array_position((select ids from positions), ${id}) - 1) / ${sql.raw(String(chunkSize))}`;

/**
 * The rows `selected` holds, up to the last one whose items (rows of `owner`'s table) still fit in
 * `limits.includedItemsMaxPerPage` together with those before it; the first row always stays.
 */
const cutByItems = (owner: AnyPgColumn) => sql`with counted as materialized (
      select ${owner} as owner, count(*) as items from ${owner.table} where ${owner} in (select id from selected) group by ${owner}
    )
    select id from (
      select s.id, row_number() over (order by s.id) as position,
             sum(coalesce(n.items, 0)) over (order by s.id rows unbounded preceding) as running
      from selected as s left join counted as n on n.owner = s.id
    ) as cut where position = 1 or running <= ${sql.raw(String(limits.includedItemsMaxPerPage))}`;

/**
 * The statement of a kind of page, rendered once around its page query (`selected`) and the base of its links. It
 * answers rows (kind, chunk, json): kind 0 the page's data and kind 1 its included resources, JSON lists that the
 * server joins in the order of their chunks; kind 2 the page's ids (for its pagination links); kind 3 how many the page
 * query selected (when the page can end early). The columns are named, so the rows of a transaction's handle (objects
 * by column name) keep them all.
 *
 * Pages of stored JSON (orders) come in chunks of `chunkSize` of the page's resources with what they include: on
 * PostgreSQL the aggregate of a whole page, its brackets, the base's replacement and the message around it each copied
 * the page (80 KiB and more) into memory its process had just taken from the system and gave back after the statement,
 * so about half of its time per order page went to copying and page faults (perf; bench/RESULTS.md, findings); a chunk
 * of 10 KiB stays in memory the process keeps. A row per resource instead cost PGlite twice the page's time in protocol
 * messages (300 of them for 100 orders with their items). Pages whose JSON the statement writes (shipments, the other
 * tables) stay one text each, a chunk 0: in chunks, a shipment page's expressions cost PGlite about a third more.
 */
interface Statement {
  beforeBase: SQL;
  beforeIds: SQL;
  afterIds: SQL;
}
const statementOf = madeOnce((parts: Parts): Statement => {
  const { data, included, itemsOwner, stored } = parts;
  const none = sql`select null::text, 0, 0, 0 where false`;
  // Stored JSON gets the request's base where its marker is (the request CTE holds the base quoted: its quote is left out).
  const based = (json: SQL) => (stored ? sql`replace(${json}, ${markerChar}, substr((select base from request), 2))` : json);
  const includedRows = sql.join(included.length ? included : [none], sql` union all `);
  const rows = stored
    ? sql`select 0 as kind, ${chunkOf(sql`d.id`)} as chunk, ${based(sql`string_agg(d.resource, ',' order by d.id)`)} as json
      from (${data}) as d(resource, id) group by 2
    union all
    select 1, ${chunkOf(sql`x.owner`)}, ${based(sql`string_agg(x.resource, ',' order by x.owner, x.part, x.id)`)}
      from (${includedRows}) as x(resource, owner, part, id) group by 2`
    : sql`select 0 as kind, 0 as chunk, (select string_agg(d.resource, ',' order by d.id) from (${data}) as d(resource, id)) as json
    union all
    select 1, 0, (select string_agg(x.resource, ',' order by x.owner, x.part, x.id) from (${includedRows}) as x(resource, owner, part, id))`;
  const after = sql`), page as (${itemsOwner ? cutByItems(itemsOwner) : sql`select id from selected`}),
    positions(ids) as (select array_agg(id order by id) from page)
    ${rows}
    union all
    select 2, 0, array_to_string((select ids from positions), ',')${
      itemsOwner
        ? sql`
    union all
    select 3, count(*)::int, null from selected`
        : sql``
    }`;
  return {
    beforeBase: sql.raw('with request(base) as (select '),
    beforeIds: sql.raw('::text), selected as ('),
    afterIds: rendered('page', after),
  };
});

/** The JSON lists of a page's chunks as one JSON array, in the chunks' order. */
const jsonArray = (chunks: { chunk: number; json: string }[]) =>
  `[${chunks
    .sort((a, b) => a.chunk - b.chunk)
    .map(({ json }) => json)
    .join(',')}]`;

export async function pageText(db: Db, base: string, ids: IdQuery, parts: Parts): Promise<PageText> {
  const { beforeBase, beforeIds, afterIds } = statementOf(parts);
  const openLink = JSON.stringify(base).slice(0, -1);
  const rows = await queryText(db, sql`${beforeBase}${openLink}${beforeIds}${ids}${afterIds}`);
  const [data, included]: { chunk: number; json: string }[][] = [[], []];
  let pageIds: { id: number }[] = [];
  let selected: number | undefined;
  for (const [kind, chunk, json] of rows) {
    if (kind === '2') pageIds = json ? json.split(',').map((id) => ({ id: Number(id) })) : [];
    else if (kind === '3') selected = Number(chunk);
    else if (json !== null) (kind === '0' ? data : included).push({ chunk: Number(chunk), json });
  }
  return { data: jsonArray(data), included: jsonArray(included), ids: pageIds, cut: selected !== undefined && selected > pageIds.length };
}

export async function documents(db: Db, base: string, ids: IdQuery, parts: Parts): Promise<Documents> {
  const page = await pageText(db, base, ids, parts);
  return { data: JSON.parse(page.data) as ResourceObject[], included: JSON.parse(page.included) as ResourceObject[] };
}

/**
 * The bytes of a document whose members are JSON text already (the list pages: the database's JSON is sent as it is),
 * written once into one buffer. Text that is ASCII (byte length = length: what these pages are, unless a value has
 * other characters) is copied byte for byte; Buffer.from's UTF-8 encoding of the same text cost about ten times as
 * much, and joining the members into one string first copied a page once more (bench/RESULTS.md).
 */
export function documentBody(members: Record<string, string>): Buffer {
  const parts = Object.entries(members).flatMap(([name, json], index) => [`${index ? ',' : '{'}${JSON.stringify(name)}:`, json]);
  parts.push('}');
  const lengths = parts.map((part) => Buffer.byteLength(part));
  const body = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + length, 0));
  let offset = 0;
  for (const [index, part] of parts.entries()) offset += body.write(part, offset, lengths[index] === part.length ? 'latin1' : 'utf8');
  return body;
}

export const inPage = (column: AnyPgColumn) => sql`${column} in (select id from page)`;

/** The resources of the page, as rows (resource, id). */
export const pageRows = ({ id, json, related }: ResourceSql) =>
  sql`${related ? sql`with ${related.ctes} ` : sql``}select ${json}, ${id} from ${id.table} ${related?.joins ?? sql``} where ${inPage(id)}`;

/** The resources of one table whose ids `ids` selects, in id order, with nothing included. */
export async function tableDocuments(db: Db, resourceSql: ResourceSql, ids: IdQuery, base: string): Promise<ResourceObject[]> {
  return (await documents(db, base, ids, tableParts(resourceSql))).data;
}
const tableParts = madeOnce((resourceSql: ResourceSql): Parts => ({ data: pageRows(resourceSql), included: [] }));

/** `make`, called once per key: the parts of a kind of page are the same object each time, so its statement is rendered once. */
export function madeOnce<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key) as V;
  };
}
