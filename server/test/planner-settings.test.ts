// The planner settings the server's connections use (platform/db, plannerSettings), on both databases: a key lookup of
// a table of a few pages, planned once and kept (as PostgreSQL keeps a foreign key check's plan), is an index scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/index.ts';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

/** The generic plan of a foreign key check's shape against a table of 150 rows in several pages, on one connection. */
async function keyLookupPlan(randomPageCost?: string): Promise<string> {
  return sb.database.db.transaction(async (tx) => {
    if (randomPageCost) await tx.execute(sql.raw(`set local random_page_cost = ${randomPageCost}`));
    await tx.execute(sql`create temporary table looked_up (id integer primary key, padding text) on commit drop`);
    await tx.execute(sql`insert into looked_up select n, repeat('x', 200) from generate_series(1, 150) as n`);
    await tx.execute(sql`analyze looked_up`);
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql`prepare key_check(integer) as select 1 from only looked_up x where id = $1 for key share of x`);
    const rows = await queryRows<Record<string, string>>(tx, sql`explain execute key_check(5)`);
    await tx.execute(sql`deallocate key_check`);
    return rows.map((row) => Object.values(row)[0]).join('\n');
  });
}

describe('planner settings of the server connections', () => {
  it('price a random page read as storage with cheap random reads does', async () => {
    const [{ random_page_cost }] = await queryRows<{ random_page_cost: string }>(sb.database.db, sql`show random_page_cost`);
    expect(random_page_cost).toBe('1.1');
  });

  it('plan a key lookup of a small table as an index scan, which the default price of 4 would plan as a sequential scan', async () => {
    expect(await keyLookupPlan()).toContain('Index Scan using looked_up_pkey');
    expect(await keyLookupPlan('4')).toContain('Seq Scan on looked_up');
  });
});
