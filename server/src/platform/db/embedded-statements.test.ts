// drizzle's queries on the embedded database run through EmbeddedStatements' prepared names: the answers must be
// PGlite's own, value for value, and errors, transactions and changed tables must behave as with PGlite's query().
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, parse, protocol, types } from '@electric-sql/pglite';
import { EmbeddedStatements, type DrizzleClient } from './embedded-statements.ts';
import { isUniqueViolation } from './index.ts';

let client: PGlite;
let fast: DrizzleClient;

beforeAll(async () => {
  client = await PGlite.create();
  await client.exec(`create table t (
    id serial primary key, name text unique, amount numeric(14,2), at timestamptz, day date, doc jsonb, flag boolean,
    tags text[], bytes bytea, counts int[])`);
  fast = new EmbeddedStatements(client, protocol.serialize, parse.parseResults).drizzleClient();
});
afterAll(() => client.close());

/** drizzle's options for a query with fields: rows as arrays, dates left as text. */
const arrayMode = {
  rowMode: 'array' as const,
  parsers: { [types.TIMESTAMPTZ]: (value: string) => value, [types.DATE]: (value: string) => value },
};

describe('drizzle queries prepared by name on PGlite', () => {
  it('answers every type as PGlite does, with its serializers and parsers, in both row modes', async () => {
    const insert =
      'insert into t (name, amount, at, day, doc, flag, tags, bytes, counts) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *';
    const values = [
      'a',
      '12.50',
      new Date('2026-01-02T03:04:05.678Z'),
      '2026-01-02',
      { b: [1, 'x'] },
      true,
      ['p', 'q"r'],
      new Uint8Array([0, 255]),
      [1, 2],
    ];
    const ours = await fast.query(insert, values);
    const row = ours.rows[0] as Record<string, unknown>;
    expect(row).toMatchObject({ name: 'a', amount: '12.50', doc: { b: [1, 'x'] }, flag: true, tags: ['p', 'q"r'], counts: [1, 2] });
    expect(row.bytes).toEqual(new Uint8Array([0, 255]));
    for (const [text, params, options] of [
      ['select * from t where name = $1', ['a'], undefined],
      ['select * from t where name = $1', ['a'], arrayMode],
      ['select id, null::text as nothing from t where flag = $1 and at > $2', [true, new Date(0)], arrayMode],
      ['select count(*) from t where name = any($1::text[])', [['a', 'b']], undefined],
    ] as const) {
      for (let run = 0; run < 2; run++) {
        const mine = await fast.query(text, [...params], options);
        const theirs = await client.query(text, [...params], options);
        expect(mine.rows).toEqual(theirs.rows);
        expect(mine.fields).toEqual(theirs.fields);
      }
    }
  });

  it('sends a buffer for a bytea in binary form, stored byte for byte as PGlite stores it', async () => {
    const bytes = Buffer.from(Array.from({ length: 300 * 1024 }, (_, n) => (n * 7919) % 256));
    const mine = (await fast.query('insert into t (bytes) values ($1) returning id', [bytes])) as unknown as { rows: { id: number }[] };
    const theirs = await client.query<{ id: number }>('insert into t (bytes) values ($1) returning id', [bytes]);
    const stored = await client.query<{ md5: string; length: number }>(
      'select md5(bytes), octet_length(bytes) as length from t where id = any($1::int[]) order by id',
      [[mine.rows[0].id, theirs.rows[0].id]],
    );
    expect(stored.rows).toEqual([
      { md5: createHash('md5').update(bytes).digest('hex'), length: bytes.length },
      { md5: createHash('md5').update(bytes).digest('hex'), length: bytes.length },
    ]);
    // Read back through either, the same buffer.
    const read = 'select bytes from t where id = $1';
    const [back] = (await fast.query(read, [mine.rows[0].id])).rows as { bytes: Uint8Array }[];
    expect(Buffer.compare(Buffer.from(back.bytes), bytes)).toBe(0);
  });

  it('throws the database error with its code and constraint, and a transaction that fails leaves nothing', async () => {
    const failed = await fast.query('insert into t (name) values ($1)', ['a']).catch((error: unknown) => error);
    expect(isUniqueViolation(failed, 't_name_unique') || isUniqueViolation(failed)).toBe(true);
    expect((failed as { query?: string }).query).toBe('insert into t (name) values ($1)');
    const inside = await fast
      .transaction(async (tx) => {
        await tx.query('insert into t (name) values ($1)', ['in-transaction']);
        await tx.query('insert into t (name) values ($1)', ['a']);
      })
      .catch((error: { code?: string }) => error.code);
    expect(inside).toBe('23505');
    expect((await fast.query('select count(*)::int as n from t where name = $1', ['in-transaction'])).rows).toEqual([{ n: 0 }]);
    // A statement that does not parse is refused the same way, and the next query runs.
    await expect(fast.query('select from where', [])).rejects.toMatchObject({ code: '42601' });
    expect((await fast.query('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
  });

  it('commits a transaction whose statements ran prepared, and waits for it outside', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = fast.transaction(async (tx) => {
      await tx.query('insert into t (name) values ($1)', ['committed']);
      await held;
    });
    // A query outside waits for the transaction: it sees the row once committed, never half of it.
    const outside = fast.query('select count(*)::int as n from t where name = $1', ['committed']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ n: 1 }]);
  });

  it('describes a statement again when its table changed under it', async () => {
    await client.exec('create table changing (a int)');
    await client.exec('insert into changing values (1)');
    expect((await fast.query('select * from changing', [])).rows).toEqual([{ a: 1 }]);
    await client.exec('alter table changing add column b text default $$x$$');
    expect((await fast.query('select * from changing', [])).rows).toEqual([{ a: 1, b: 'x' }]);
  });

  it('keeps answering right when more statement texts ran than it keeps prepared', async () => {
    for (let n = 0; n < 520; n++) expect((await fast.query(`select $1::int + ${n} as v`, [1])).rows).toEqual([{ v: n + 1 }]);
    expect((await fast.query('select $1::int + 0 as v', [41])).rows).toEqual([{ v: 41 }]);
    const prepared = await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
    expect(prepared.rows[0].n).toBeLessThanOrEqual(501);
  });
});
