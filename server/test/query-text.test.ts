// queryText, the statement runner of the v3 list pages: rows of text as the database wrote them, each statement text
// prepared once (on PGlite by its own protocol messages), the same answers in a transaction, and no interference with
// a transaction another caller has open on the embedded database. textStatement and queryStatement, a statement
// rendered once with its values filled in on each run (the order statement's runner).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryStatement, queryText, textStatement } from '../src/platform/db/index.ts';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
  await sb.database.db.execute(sql`create table query_text_probe (id integer primary key, name text)`);
  await sb.database.db.execute(sql`insert into query_text_probe values (1, 'één "quoted"'), (2, null), (3, 'three')`);
});
afterAll(() => sb.close());

const probe = (ids: number[], after: string) =>
  sql`select id::text, name, ${after}::text as after from query_text_probe where id = any(${sql.param(ids)}::int[]) order by id`;

describe('queryText', () => {
  it('answers text columns as the database wrote them, with NULL as null, run after run and inside a transaction', async () => {
    const { db } = sb.database;
    const expected = [
      ['1', 'één "quoted"', 'x'],
      ['3', 'three', 'x'],
    ];
    for (let run = 0; run < 3; run++) expect(await queryText(db, probe([1, 3], 'x'))).toEqual(expected);
    expect(await queryText(db, probe([2], 'y'))).toEqual([['2', null, 'y']]);
    expect(await db.transaction((tx) => queryText(tx, probe([1, 3], 'x')))).toEqual(expected);
    expect(await queryText(db, probe([], 'x'))).toEqual([]);
  });

  it('throws the database error of a failing run, and runs the same statement again afterwards', async () => {
    const { db } = sb.database;
    const dividing = (divisor: number) => sql`select (10 / ${divisor}::int)::text`;
    await expect(queryText(db, dividing(0))).rejects.toMatchObject({ code: '22012' });
    expect(await queryText(db, dividing(5))).toEqual([['2']]);
    await expect(queryText(db, sql`select nonsense from`)).rejects.toMatchObject({ code: '42601' });
    expect(await queryText(db, dividing(2))).toEqual([['5']]);
  });

  it('keeps answering when more statement texts have run than it keeps prepared', async () => {
    const { db } = sb.database;
    for (let n = 0; n < 230; n++) expect(await queryText(db, sql.raw(`select '${n}'::text`))).toEqual([[String(n)]]);
    expect(await queryText(db, sql.raw(`select '0'::text`))).toEqual([['0']]);
  });

  it('does not run inside a transaction another caller has open, so its failure cannot abort that transaction', async () => {
    const { db } = sb.database;
    let failing: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into query_text_probe values (10, 'in a transaction')`);
      failing = queryText(db, sql`select (1 / 0)::text`).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute(sql`insert into query_text_probe values (11, 'still in it')`);
    });
    expect(await failing).toMatchObject({ code: '22012' });
    expect(await queryText(db, probe([10, 11], 'z'))).toEqual([
      ['10', 'in a transaction', 'z'],
      ['11', 'still in it', 'z'],
    ]);
  });
});

describe('queryStatement', () => {
  const statement = textStatement(
    sql`select id::text, name, ${sql.placeholder('after')}::text from query_text_probe
        where id = any(${sql.placeholder('ids')}::int[]) and ${'fixed'}::text = 'fixed' order by id`,
  );

  it('renders its text once and fills the named values on every run, beside the constants bound while rendering', async () => {
    const { db } = sb.database;
    expect(statement.text).toContain('$1::text');
    expect(statement.params).toEqual([{ placeholder: 'after' }, { placeholder: 'ids' }, { constant: 'fixed' }]);
    for (let run = 0; run < 3; run++)
      expect(await queryStatement(db, statement, { ids: [1, 3], after: `run ${run}` })).toEqual([
        ['1', 'één "quoted"', `run ${run}`],
        ['3', 'three', `run ${run}`],
      ]);
    expect(await queryStatement(db, statement, { ids: [2], after: null })).toEqual([['2', null, null]]);
  });

  it('refuses a run with a value missing, and one in a transaction, before anything reaches the database', async () => {
    const { db } = sb.database;
    await expect(queryStatement(db, statement, { ids: [1] })).rejects.toThrow('no value for the placeholder after');
    await expect(db.transaction((tx) => queryStatement(tx, statement, { ids: [1], after: 'x' }))).rejects.toThrow('not a transaction');
    expect(await queryStatement(db, statement, { ids: [1], after: 'y' })).toEqual([['1', 'één "quoted"', 'y']]);
  });

  it('throws the database error of a failing run and runs again afterwards', async () => {
    const { db } = sb.database;
    const dividing = textStatement(sql`select (10 / ${sql.placeholder('divisor')}::int)::text`);
    await expect(queryStatement(db, dividing, { divisor: 0 })).rejects.toMatchObject({ code: '22012' });
    expect(await queryStatement(db, dividing, { divisor: 5 })).toEqual([['2']]);
  });
});
