// A digest of the data tables in one statement: equal before and after means nothing was written.
// Request accounting (rate-limit counters, tokens, the request log, migrations) changes on every request and is left out.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/platform/db/index.ts';

const accountingTables = new Set(['rate_limit_counters', 'token_failure_counters', 'tokens', 'request_log', '__drizzle_migrations']);

const queries = new WeakMap<Db, Map<string, SQL>>();

async function build(db: Db, clientId: number | undefined): Promise<SQL> {
  const result = await db.execute(sql`
    select t.table_name, bool_or(c.column_name = 'client_id') as tenant
    from information_schema.tables t join information_schema.columns c using (table_schema, table_name)
    where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
    group by t.table_name order by t.table_name`);
  const rows = (result as unknown as { rows: { table_name: string; tenant: boolean }[] }).rows.filter(
    (r) => !accountingTables.has(r.table_name) && (clientId === undefined || r.tenant),
  );
  const parts = rows.map(({ table_name: name }) => {
    const where = clientId === undefined ? '' : ` where t.client_id = ${Number(clientId)}`;
    return `(select '${name}=' || count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') from "${name}" t${where})`;
  });
  return sql.raw(`select ${parts.join(` || ';' || `)} as f`);
}

/** The digest of every data table, or only of one client's rows. */
export async function fingerprint(db: Db, clientId?: number): Promise<string> {
  const key = String(clientId ?? 'all');
  let perDb = queries.get(db);
  if (!perDb) {
    perDb = new Map();
    queries.set(db, perDb);
  }
  let query = perDb.get(key);
  if (!query) {
    query = await build(db, clientId);
    perDb.set(key, query);
  }
  const result = await db.execute(query);
  return (result as unknown as { rows: { f: string }[] }).rows[0].f;
}
