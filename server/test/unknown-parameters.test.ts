// No query parameter is silently ignored: every v3 and sandbox operation (generated from the contract) answers one it
// does not know with 400 naming it and the supported ones, and changes nothing; v2 stays lenient. The shipment
// filters the spec names without filter[] are read in both spellings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStyle, operations, type Operation } from '@shopapi/contract';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';
import { buildWorld, pathFor, type World } from './support/world.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { fingerprint } from './support/fingerprint.ts';

let sb: TestSandbox;
let world: World;

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  world = await buildWorld(sb, await sb.newClient());
});
afterAll(() => sb.close());

const strict = operations.filter((op) => errorStyle(op) === 'jsonapi');
const isList = (op: Operation) => op.method === 'GET' && 'page[size]' in (op.query?.properties ?? {});

describe('unknown query parameters', () => {
  it('covers every v3 list operation', () => {
    expect(strict.filter(isList).map((op) => op.path)).toEqual(
      expect.arrayContaining(['/v3/orders', '/v3/shipments', '/v3/products', '/v3/stock']),
    );
    expect(strict.filter((op) => !pathFor(op, world)).map((op) => op.operationId)).toEqual([]);
  });

  it.each(strict.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s refuses an unknown parameter with 400 naming it and the supported ones',
    async (_name, op) => {
      const supported = Object.keys(op.query?.properties ?? {});
      const before = op.method === 'GET' ? '' : await fingerprint(sb.database.db);
      // A valid body where the operation has one, so the parameter is the only problem.
      const body = op.bodyContentTypes ? undefined : op.requestExample;
      for (const name of ['filter[orderId][nin]', 'unknownParameter']) {
        const answer = await sb.call(op.method, `${pathFor(op, world)}?${encodeURIComponent(name)}=6`, {
          token: op.auth ? world.client.token : undefined,
          body,
        });
        expect(answer.status, answer.raw.slice(0, 300)).toBe(400);
        const [error] = answer.body.errors;
        expect(error).toMatchObject({ code: '400', status: '400', source: { parameter: name } });
        expect(error.detail).toContain(name);
        for (const known of supported) expect(error.detail).toContain(known);
        if (!supported.length) expect(error.detail).toContain('takes no query parameters');
      }
      if (op.method !== 'GET') expect(await fingerprint(sb.database.db)).toBe(before);
    },
  );

  it('names every unknown parameter of a request, each with its own error', async () => {
    const answer = await sb.call('GET', '/v3/orders?page[size]=5&sort=id&filter[status][in]=NEW', { token: world.client.token });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { source: { parameter: string } }) => e.source.parameter).sort()).toEqual([
      'filter[status][in]',
      'sort',
    ]);
  });

  it('v2 calls stay lenient about unknown query parameters', async () => {
    const answer = await sb.call('GET', '/settings/get?unknownParameter=1', { token: world.client.token });
    expect(answer.status).toBe(200);
  });
});

describe('the shipment filters by order, in every spelling', () => {
  it('filters by orderId, filter[orderId] and filter[orderId][in], and by externalOrderNumber likewise', async () => {
    const { client } = world;
    await createProducts(sb, client.token, ['SPELL-1']);
    const orders = [];
    for (let i = 0; i < 3; i++) {
      const order = (
        await sb.call('POST', '/v3/orders', {
          token: client.token,
          body: orderDocument(client, { items: [{ sku: 'SPELL-1', quantity: 1 }] }),
        })
      ).body.data;
      expect((await sb.call('POST', `/sandbox/orders/${order.id}/ship`, { token: client.token })).status).toBe(201);
      orders.push(order);
    }
    const [a, b, c] = orders;
    const shipmentsOf = async (query: string) => {
      const answer = await sb.call('GET', `/v3/shipments?${query}`, { token: client.token });
      expect(answer.status, `${query}: ${answer.raw.slice(0, 300)}`).toBe(200);
      return answer.body.data.map((s: { relationships: { order: { data: { id: number } } } }) => s.relationships.order.data.id).sort();
    };
    const number = (o: { attributes: { externalOrderNumber: string } }) => encodeURIComponent(o.attributes.externalOrderNumber);
    expect(await shipmentsOf(`orderId=${a.id}`)).toEqual([a.id]);
    expect(await shipmentsOf(`filter[orderId]=${a.id}`)).toEqual([a.id]);
    expect(await shipmentsOf(`filter[orderId][in]=${a.id}`)).toEqual([a.id]);
    expect(await shipmentsOf(`filter[orderId][in]=${a.id},${b.id}`)).toEqual([a.id, b.id]);
    expect(await shipmentsOf(`externalOrderNumber=${number(b)}`)).toEqual([b.id]);
    expect(await shipmentsOf(`filter[externalOrderNumber]=${number(b)}`)).toEqual([b.id]);
    expect(await shipmentsOf(`filter[externalOrderNumber][in]=${number(b)},${number(c)}`)).toEqual([b.id, c.id]);
    // Given together, all apply.
    expect(await shipmentsOf(`orderId=${a.id}&filter[orderId][in]=${a.id},${b.id}`)).toEqual([a.id]);
    expect(await shipmentsOf(`filter[orderId][in]=${a.id},${b.id}&filter[externalOrderNumber][in]=${number(b)},${number(c)}`)).toEqual([
      b.id,
    ]);
    expect(await shipmentsOf(`orderId=${a.id}&externalOrderNumber=${number(b)}`)).toEqual([]);
    // A list filter of order ids takes integers.
    const wrong = await sb.call('GET', '/v3/shipments?filter[orderId][in]=abc', { token: client.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].source).toEqual({ parameter: 'filter[orderId][in]' });
  }, 60_000);
});
