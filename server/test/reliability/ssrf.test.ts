// Webhook targets cannot aim the sandbox at its own network: every spelling of a loopback, private or otherwise
// non-public address is refused when a webhook is registered or changed, and again by the dispatcher when it sends.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema, type Db } from '../../src/platform/db/index.ts';
import { dispatchDue } from '../../src/modules/webhooks/dispatcher.ts';
import { emitEvent } from '../../src/modules/webhooks/outbox.ts';
import { guardedLookup, isPublicAddress, RefusedTargetError, refusedHost, refusedTarget } from '../../src/platform/outbound-guard.ts';
import { startSandbox, type TestClient, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/** Target URLs that must be refused, each with what it is. */
const refused: [string, string][] = [
  ['http://[::127.0.0.1]/hook', 'IPv4-compatible IPv6 of 127.0.0.1'],
  ['http://[::7f00:1]/hook', 'IPv4-compatible IPv6 of 127.0.0.1, hex'],
  ['http://[::10.0.0.1]:8080/hook', 'IPv4-compatible IPv6 of a private address'],
  ['http://[::ffff:127.0.0.1]/hook', 'IPv4-mapped loopback'],
  ['http://[::ffff:7f00:1]/hook', 'IPv4-mapped loopback, hex'],
  ['http://[::ffff:169.254.169.254]/latest/meta-data', 'IPv4-mapped link-local (cloud metadata)'],
  ['http://[64:ff9b::127.0.0.1]/hook', 'NAT64 of loopback'],
  ['http://[64:ff9b::a00:1]/hook', 'NAT64 of 10.0.0.1'],
  ['http://[64:ff9b:1::c0a8:101]/hook', 'local-use NAT64 of 192.168.1.1'],
  ['http://[2002:7f00:1::1]/hook', '6to4 of 127.0.0.1'],
  ['http://[2002:c0a8:101::1]/hook', '6to4 of 192.168.1.1'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', 'Teredo, client 127.0.0.1'],
  ['http://0.0.0.0/hook', 'unspecified IPv4'],
  ['http://0/hook', 'unspecified IPv4, one number'],
  ['http://[::]/hook', 'unspecified IPv6'],
  ['http://2130706433/hook', 'loopback as one decimal number'],
  ['http://0x7f.1/hook', 'loopback in hex, two parts'],
  ['http://0x7f000001/hook', 'loopback as one hex number'],
  ['http://0177.0.0.1/hook', 'loopback in octal'],
  ['http://127.1/hook', 'loopback, two parts'],
  ['http://127.0.0.1./hook', 'loopback with a trailing dot'],
  ['http://localhost/hook', 'localhost'],
  ['http://LOCALHOST:3000/hook', 'localhost in capitals'],
  ['http://localhost./hook', 'localhost with a trailing dot'],
  ['http://api.localhost/hook', 'a subdomain of localhost'],
  ['http://[::1]/hook', 'IPv6 loopback'],
  ['http://[fe80::1]/hook', 'IPv6 link-local'],
  ['http://[fd00::1]/hook', 'IPv6 unique-local'],
  ['http://[fec0::1]/hook', 'IPv6 site-local (deprecated)'],
  ['http://[ff02::1]/hook', 'IPv6 multicast'],
  ['http://[2001:db8::1]/hook', 'IPv6 documentation'],
  ['http://[100::1]/hook', 'IPv6 discard-only'],
  ['http://[1::1]/hook', 'IPv6 outside global unicast'],
  ['http://10.1.2.3/hook', 'private'],
  ['http://172.31.255.255/hook', 'private'],
  ['http://192.168.0.10/hook', 'private'],
  ['http://100.64.0.1/hook', 'carrier-grade NAT'],
  ['http://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
  ['http://192.0.2.1/hook', 'documentation'],
  ['http://198.18.0.1/hook', 'benchmarking'],
  ['http://224.0.0.1/hook', 'multicast'],
  ['http://240.0.0.1/hook', 'reserved'],
  ['http://255.255.255.255/hook', 'broadcast'],
];

/** Public literals: accepted without any network access. */
const accepted = [
  'http://93.184.216.34/hook',
  'https://93.184.216.34:8443/hook',
  'http://[2606:2800:220:1:248:1893:25c8:1946]/hook',
  'http://[::ffff:93.184.216.34]/hook',
];

describe('the shared outbound check', () => {
  it.each(refused)('refuses %s (%s)', (targetUrl) => {
    expect(refusedHost(new URL(targetUrl).hostname)).toMatch(/not a public address/);
  });

  it.each(accepted)('lets %s through', async (targetUrl) => {
    const { hostname } = new URL(targetUrl);
    expect(refusedHost(hostname)).toBeUndefined();
    expect(await refusedTarget(hostname)).toBeUndefined();
  });

  it('judges resolved addresses the same way', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'fe80::1%eth0',
      '0.0.0.0',
      '::',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses a name that resolves to loopback at connect time', async () => {
    // /etc/hosts names localhost everywhere: no DNS server is asked.
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', { all: true }, (e) => resolve(e)));
    expect(error).toBeInstanceOf(RefusedTargetError);
    expect(error?.message).toMatch(/^localhost resolves to .* is not a public address$/);
  });
});

describe('POST and PUT /v3/webhooks with private targets refused', () => {
  let sb: TestSandbox;
  let client: TestClient;
  beforeAll(async () => {
    sb = await startSandbox({ webhookAllowPrivateTargets: false });
    client = await sb.newClient();
  });
  afterAll(() => sb.close());

  const document = (targetUrl: string) => ({
    data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl } },
  });

  it.each(refused)('refuses %s (%s) with 400 on targetUrl', async (targetUrl) => {
    const answer = await sb.call('POST', '/v3/webhooks', { token: client.token, body: document(targetUrl) });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toEqual(['/data/attributes/targetUrl']);
    expect(answer.body.errors[0].detail).toMatch(/not a public address/);
  });

  it.each(accepted)('accepts the public literal %s', async (targetUrl) => {
    expect((await sb.call('POST', '/v3/webhooks', { token: client.token, body: document(targetUrl) })).status).toBe(201);
  });

  it('refuses changing a target to an embedded loopback address', async () => {
    const id = (await sb.call('POST', '/v3/webhooks', { token: client.token, body: document(accepted[0]) })).body.data.id;
    for (const targetUrl of ['http://[::127.0.0.1]/hook', 'http://2130706433/hook', 'http://localhost./hook']) {
      const answer = await sb.call('PUT', `/v3/webhooks/${id}`, {
        token: client.token,
        body: { data: { type: 'webhook', id, attributes: { targetUrl } } },
      });
      expect(answer.status, targetUrl).toBe(400);
    }
    expect((await sb.call('GET', `/v3/webhooks/${id}`, { token: client.token })).body.data.attributes.targetUrl).toBe(accepted[0]);
  });
});

describe('the dispatcher with private targets refused', () => {
  let sb: TestSandbox;
  let client: TestClient;
  let receiver: Receiver;
  beforeAll(async () => {
    sb = await startSandbox({ webhookAllowPrivateTargets: false });
    client = await sb.newClient();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await sb.close();
  });

  it('sends nothing to loopback however it is spelled, and records why', async () => {
    const port = new URL(receiver.url()).port;
    // Stored directly: the service would refuse them, as a row written before this check existed would not have been.
    const targets = ['[::127.0.0.1]', '[::ffff:127.0.0.1]', '127.1', 'localhost.', '[64:ff9b::7f00:1]'].map(
      (host) => `http://${host}:${port}/hook`,
    );
    for (const targetUrl of targets) {
      await sb.database.db.insert(schema.webhooks).values({
        clientId: client.id,
        entity: 'shipment',
        event: 'shipment.shipped.3',
        targetUrl,
        secret: `whsec_${randomBytes(24).toString('base64')}`,
      });
    }
    await sb.database.db.transaction(async (tx) => {
      await emitEvent(tx as unknown as Db, client.id, {
        type: 'shipment.shipped.3',
        entity: 'shipment',
        entityId: 1,
        occurredOn: new Date(),
        data: { type: 'shipment', id: 1, attributes: { status: 'SHIPPED' } },
      });
    });
    expect(await dispatchDue(sb.database.db, { allowPrivateTargets: false, timeoutMs: 2_000 })).toEqual({
      attempted: targets.length,
      delivered: 0,
    });
    expect(receiver.requests).toEqual([]);
    const deliveries = await sb.database.db.select({ lastError: schema.webhookDeliveries.lastError }).from(schema.webhookDeliveries);
    expect(deliveries).toHaveLength(targets.length);
    for (const { lastError } of deliveries) expect(lastError).toMatch(/not a public address/);
  });
});
