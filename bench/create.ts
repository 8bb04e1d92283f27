// Scenario 2: POST /v3/orders (five items, two addresses) with full validation, a new externalOrderNumber per request.
import { load, ms, orderDocument, rps, startBenchServer } from './lib.ts';

export async function benchCreate(databaseUrl: string): Promise<string[]> {
  const server = await startBenchServer({ DATABASE_URL: databaseUrl, BENCH_SEED_ORDERS: '100' });
  try {
    let n = 0;
    const prefix = `C-${Date.now().toString(36)}`;
    const statuses = new Map<number, number>();
    console.log('create orders');
    const result = await load({
      url: `${server.url}/v3/orders`,
      method: 'POST',
      token: server.token,
      label: 'create',
      body: () => JSON.stringify(orderDocument(server.client, `${prefix}-${++n}`)),
      onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
    });
    const created = statuses.get(201) ?? 0;
    return [
      '| Route | req/s | p50 | p99 | 201 answers | other answers |',
      '|---|---|---|---|---|---|',
      `| \`${result.command}\` (body: 5 items, delivery + billing address; unique externalOrderNumber per request) | ${rps(result.requestsPerSecond)} | ${ms(result.p50)} | ${ms(result.p99)} | ${created} | ${
        [...statuses]
          .filter(([s]) => s !== 201)
          .map(([s, c]) => `${c}×${s}`)
          .join(', ') || 'none'
      } |`,
    ];
  } finally {
    await server.stop();
  }
}
