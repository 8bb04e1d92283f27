// What the stored order JSON's triggers cost the create route (server/src/representation/stored.ts): POST
// /v3/orders against one server and one PostgreSQL database (fsync on), with the triggers enabled and disabled in
// turn, three alternating rounds of 8 s with 10 connections after 3 s to warm up. The placing statement writes the
// order's JSON itself (placementJson) and the insert triggers of its tables do not fire for it (their WHEN), so for
// creates this measures little more than the triggers being there. Not part of `npm run bench`:
//   npx tsx bench/stored-json-cost.ts
// With the triggers disabled the stored JSON falls out of step: the database is thrown away with its cluster.
import pg from 'pg';
import { startCluster } from '../server/test/support/postgres-cluster.ts';
import { createRate, probeDatabase, startBenchServer } from './lib.ts';

const cluster = await startCluster({ fsync: true });
try {
  const url = await probeDatabase(cluster, 'stored_json_cost');
  const server = await startBenchServer({ DATABASE_URL: url, BENCH_SEED_ORDERS: '200' });
  const switcher = new pg.Client({ connectionString: url });
  await switcher.connect();
  const triggers = async (on: boolean) => {
    for (const table of ['orders', 'order_items', 'order_attachments', 'pick_up_points'])
      await switcher.query(`alter table ${table} ${on ? 'enable' : 'disable'} trigger user`);
  };
  const create = (duration: number) => createRate(server, duration);
  await create(3);
  const rounds: { with: number; without: number }[] = [];
  for (let round = 0; round < 3; round++) {
    await triggers(true);
    const withTriggers = await create(8);
    await triggers(false);
    rounds.push({ with: withTriggers, without: await create(8) });
  }
  console.log(`POST /v3/orders req/s, stored JSON's triggers on / off: ${rounds.map((r) => `${r.with} / ${r.without}`).join(', ')}`);
  await switcher.end();
  await server.stop();
} finally {
  await cluster.stop();
}
