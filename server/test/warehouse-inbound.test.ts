// Inbound events from the sandbox receipt: every step of the inbound lifecycle reaches the outbox in order, with the
// inbound as it was at that step; a receipt that differs from the slip adds the checkingUpdate of its difference location.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { dispatchDue } from '../src/modules/webhooks/dispatcher.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { startReceiver, type Receiver } from './support/webhook-receiver.ts';

let sb: TestSandbox;
let client: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  receiver = await startReceiver();
  for (const event of webhookEvents.inbound) {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await sb.database.db
      .insert(schema.webhooks)
      .values({ clientId: client.id, entity: 'inbound', event, targetUrl: receiver.url(`/${event}`), secret });
    receiver.secrets.set(`/${event}`, secret);
  }
  await createProducts(sb, client.token, ['BOOK', 'PEN']);
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
});

async function announce() {
  const slip = await sb.call('POST', '/v3/inboundPackingSlips', {
    token: client.token,
    body: {
      data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: uniqueNumber('SLIP') } },
      included: [{ type: 'inboundPackingSlipItem', attributes: { sku: 'BOOK', quantity: 4 } }],
    },
  });
  expect(slip.status, slip.raw).toBe(201);
  return slip.body.data.id as number;
}

const eventsOf = (inboundId: number) => receiver.delivered().filter((r) => r.data.id === inboundId);

describe('inbound events', () => {
  it('emits processing, checking, checked on receipt and processed 2 hours later, each with the inbound at that step', async () => {
    const received = await sb.call('POST', `/sandbox/inboundPackingSlips/${await announce()}/receive`, { token: client.token });
    expect(received.status, received.raw).toBe(201);
    const inboundId = received.body.data.id;
    await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 2 * 3600 + 1 } });
    await dispatchDue(sb.database.db, { allowPrivateTargets: true });
    const events = eventsOf(inboundId);
    expect(events.map((e) => [e.type, e.data.attributes.status])).toEqual([
      ['inbound.processing', 'PROCESSING'],
      ['inbound.checking', 'CHECKING'],
      ['inbound.checked', 'CHECKED'],
      ['inbound.processed', 'COMPLETED'],
    ]);
    expect(events.every((e) => e.verified)).toBe(true);
  });

  it('adds inbound.checkingUpdate when the goods differ from the slip', async () => {
    const received = await sb.call('POST', `/sandbox/inboundPackingSlips/${await announce()}/receive`, {
      token: client.token,
      body: {
        items: [
          { sku: 'BOOK', quantity: 3 },
          { sku: 'PEN', quantity: 2 },
        ],
      },
    });
    expect(received.status, received.raw).toBe(201);
    await dispatchDue(sb.database.db, { allowPrivateTargets: true });
    expect(eventsOf(received.body.data.id).map((e) => [e.type, e.data.attributes.status])).toEqual([
      ['inbound.processing', 'PROCESSING'],
      ['inbound.checking', 'CHECKING'],
      ['inbound.checkingUpdate', 'CHECKING'],
      ['inbound.checked', 'CHECKED'],
    ]);
  });
});
