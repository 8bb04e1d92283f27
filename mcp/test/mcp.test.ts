// The MCP server end to end: the command `npm run mcp` runs (node --import tsx mcp/src/cli.ts), spoken to over stdio by
// the SDK's own client, against a real sandbox listening in this process.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PageSizes } from 'pdf-lib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { operations, scenarioNames } from '@shopapi/contract';
import { startListeningSandbox, type TestClient, type TestSandbox } from '../../server/test/support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from '../../server/test/support/fixtures.ts';
import { freePort } from '../../server/test/support/ports.ts';
import { answerTextMax } from '../src/call.ts';
import { createMcpServer } from '../src/server.ts';
import { excludedOperations } from '../src/tools.ts';

const repositoryRoot = join(import.meta.dirname, '..', '..');
const command = { command: process.execPath, args: ['--import', 'tsx', 'mcp/src/cli.ts'], cwd: repositoryRoot };

let sb: TestSandbox;
let client: TestClient;
let sandboxUrl: string;
let mcp: Client;
let tools: Tool[];

/** A tool answer: its head (status line, Request-Id) and its JSON body. */
interface ToolAnswer {
  isError: boolean;
  text: string;
  status: number;
  requestId?: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are untyped JSON here; the sandbox's own tests check their schemas.
  body: any;
}

async function call(name: string, args: Record<string, unknown> = {}, through = mcp): Promise<ToolAnswer> {
  const result = await through.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
  const blank = text.indexOf('\n\n');
  const head = blank === -1 ? text : text.slice(0, blank);
  let body: unknown;
  try {
    body = JSON.parse(text.slice(blank + 2));
  } catch {
    body = undefined;
  }
  return {
    isError: result.isError === true,
    text,
    status: Number(/→ (\d{3})/.exec(head)?.[1]),
    requestId: /^Request-Id: (.+)$/m.exec(head)?.[1],
    body,
  };
}

/** The server in memory, with its own fetch (a closed port, a large answer, a record of what it sends). */
async function inMemory(options: { baseUrl: string; fetch?: typeof fetch; username?: string; password?: string }): Promise<Client> {
  const server = createMcpServer({ username: 'demo', password: 'secret', ...options });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const memoryClient = new Client({ name: 'mcp-test', version: '1.0.0' });
  await memoryClient.connect(clientSide);
  return memoryClient;
}

beforeAll(async () => {
  ({ sb, baseUrl: sandboxUrl } = await startListeningSandbox());
  client = await sb.newClient();
  mcp = new Client({ name: 'mcp-test', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      ...command,
      env: { SHOPAPI_URL: sandboxUrl, SHOPAPI_USERNAME: client.username, SHOPAPI_PASSWORD: client.password },
      stderr: 'pipe',
    }),
  );
  ({ tools } = await mcp.listTools());
});
afterAll(async () => {
  await mcp?.close();
  await sb?.close();
});

describe('the tool list', () => {
  it('has a tool per operation of the v3 document, named by its operationId, but token and status, plus search_docs', () => {
    const v3 = operations.filter((op) => op.documents.includes('v3'));
    const excluded = v3.filter((op) => Object.hasOwn(excludedOperations, op.operationId));
    expect(excluded.map((op) => `${op.method} ${op.path}`).sort()).toEqual(['GET /status', 'GET /status/ready', 'POST /token']);
    const expected = v3.filter((op) => !excluded.includes(op)).map((op) => op.operationId);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...expected, 'search_docs'].sort());
    // The sandbox controls are among them.
    expect(expected).toEqual(expect.arrayContaining(['sandboxAdvanceClock', 'sandboxShipOrder', 'sandboxReceiveInboundPackingSlip']));
  });

  it("describes each tool from its operation: title, summary and description, method and path, the operation's schemas", () => {
    const createOrder = tools.find((tool) => tool.name === 'createOrder')!;
    expect(createOrder.title).toBe('Create an order');
    expect(createOrder.description).toContain('POST /v3/orders');
    expect(createOrder.inputSchema.required).toEqual(['body']);
    expect(createOrder.inputSchema.properties?.body).toMatchObject({ type: 'object', required: expect.arrayContaining(['data']) });
    const getShipment = tools.find((tool) => tool.name === 'getShipment')!;
    expect(getShipment.inputSchema).toMatchObject({ required: ['path'], properties: { path: { required: ['id'] } } });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toMatchObject({ title: expect.any(String), openWorldHint: false });
    }
  });

  it('declares every path parameter an integer or a string: the scalars a call checks a path value against', () => {
    const pathTypes = tools.flatMap((tool) =>
      Object.values(
        (tool.inputSchema.properties?.path as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {},
      ).map((parameter) => parameter.type),
    );
    expect(pathTypes.length).toBeGreaterThan(0);
    expect(new Set(pathTypes)).toEqual(new Set(['integer', 'string']));
  });

  it('marks reads read-only, deletes and sandbox controls destructive, creates not destructive', () => {
    const annotations = (name: string) => tools.find((tool) => tool.name === name)!.annotations;
    expect(annotations('getOrder')).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(annotations('cancelOrder')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(annotations('deleteWebhook')).toMatchObject({ destructiveHint: true });
    expect(annotations('updateProduct')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(annotations('createOrder')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(annotations('sandboxAdvanceClock')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(annotations('sandboxShipOrder')).toMatchObject({ destructiveHint: true });
    expect(annotations('search_docs')).toMatchObject({ readOnlyHint: true });
  });

  it('gives instructions on ids and JSON:API bodies', () => {
    expect(mcp.getInstructions()).toContain(sandboxUrl);
    expect(mcp.getInstructions()).toMatch(/JSON:API/);
  });

  it('tells how to list the test scenarios and start one, naming tools that exist', () => {
    const instructions = mcp.getInstructions() ?? '';
    expect(instructions).toContain('sandbox-scenario:<name>');
    const named = [...instructions.matchAll(/\b(sandbox[A-Z]\w+|get[A-Z]\w+)\b/g)].map(([name]) => name);
    expect(named).toEqual(expect.arrayContaining(['sandboxListScenarios', 'sandboxSetOrderScenario', 'sandboxGetOrderScenario']));
    expect(named.filter((name) => !tools.some((tool) => tool.name === name))).toEqual([]);
  });
});

describe('calls to the sandbox', () => {
  const sku = uniqueNumber('MCP');
  let orderId: number;

  it('creates a product, receives it into stock, places an order, and the warehouse ships it when the clock moves on', async () => {
    const settings = await call('getSettings');
    expect(settings.status).toBe(200);
    const orderTypeId = settings.body.result.orderTypes[0].id;

    const product = await call('createProduct', { body: { data: { type: 'product', attributes: { sku, name: 'MCP mug' } } } });
    expect(product.status, product.text).toBe(201);
    expect(product.isError).toBe(false);
    expect(product.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const today = (await call('sandboxAdvanceClock', { body: { seconds: 1 } })).body.data.attributes.now.slice(0, 10);
    const slip = await call('createInboundPackingSlip', {
      body: {
        data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', expectedOn: today, reference: uniqueNumber('SLIP') } },
        included: [{ type: 'inboundPackingSlipItem', attributes: { sku, quantity: 5 } }],
      },
    });
    expect(slip.status, slip.text).toBe(201);
    // Without a body the packing slip is received in full.
    const inbound = await call('sandboxReceiveInboundPackingSlip', { path: { id: slip.body.data.id } });
    expect(inbound.status, inbound.text).toBe(201);

    const order = await call('createOrder', {
      query: { include: 'orderItems' },
      body: orderDocument({ orderTypeIds: [orderTypeId] }, { items: [{ sku, quantity: 2 }] }),
    });
    expect(order.status, order.text).toBe(201);
    orderId = order.body.data.id;

    const clock = await call('sandboxAdvanceClock', { body: { seconds: 4 * 3600 } });
    expect(clock.status, clock.text).toBe(200);

    const shipments = await call('listShipments', { query: { orderId, include: 'shipmentItems' } });
    expect(shipments.status, shipments.text).toBe(200);
    expect(shipments.body.data).toHaveLength(1);
    const [shipment] = shipments.body.data;
    expect(shipment.attributes.status).toBe('SHIPPED');
    expect(shipments.body.included.map((item: { attributes: { sku: string } }) => item.attributes.sku)).toEqual([sku]);

    const read = await call('getShipment', { path: { id: shipment.id } });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).toMatchObject({ status: 'SHIPPED', tracking: { number: expect.any(String) } });
  });

  it('lists the test scenarios, and starts one on an order that has not shipped', async () => {
    const list = await call('sandboxListScenarios');
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((scenario: { id: string }) => scenario.id)).toEqual([...scenarioNames]);
    expect(list.body.data[0].attributes.steps.length).toBeGreaterThan(0);

    const order = await call('createOrder', {
      body: orderDocument({ orderTypeIds: client.orderTypeIds }, { items: [{ sku, quantity: 1 }] }),
    });
    expect(order.status, order.text).toBe(201);
    const path = { id: order.body.data.id };
    const started = await call('sandboxSetOrderScenario', {
      path,
      body: { data: { type: 'orderScenario', attributes: { name: 'first-attempt-failed' } } },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.body.data.attributes).toMatchObject({ name: 'first-attempt-failed', setBy: 'control' });
    const road = await call('sandboxGetOrderScenario', { path });
    expect(road.body.data.attributes).toMatchObject({ name: 'first-attempt-failed', setBy: 'control', waitingForStock: [] });
  });

  it('sends files base64-encoded: the product image as raw bytes, the attachment PDF as a multipart part', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
      'hex',
    );
    const [productId] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
    const image = await call('uploadProductImage', { path: { id: productId }, body: png.toString('base64') });
    expect(image.status, image.text).toBe(200);
    expect(image.body.meta).toMatchObject({ code: '200-1', contentType: 'image/png', size: png.length });

    const pdf = await PDFDocument.create();
    pdf.addPage(PageSizes.A4);
    const order = await call('createOrder', {
      body: orderDocument({ orderTypeIds: client.orderTypeIds }, { items: [{ sku, quantity: 1 }], attributes: { onHold: true } }),
    });
    const attributes = { filename: 'invoice.pdf', contentType: 'application/pdf' };
    const attachment = await call('createOrderAttachment', {
      body: {
        data: JSON.stringify({
          data: { type: 'orderAttachment', attributes, relationships: { order: { data: { type: 'order', id: order.body.data.id } } } },
        }),
        file: Buffer.from(await pdf.save()).toString('base64'),
      },
    });
    expect(attachment.status, attachment.text).toBe(201);
    expect(attachment.body.data.attributes).toMatchObject(attributes);
  });

  it('answers a request the sandbox refuses with isError and its JSON:API errors', async () => {
    const answer = await call('createProduct', { body: { data: { type: 'product', attributes: { name: 'No sku' } } } });
    expect(answer.isError).toBe(true);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ status: '400', code: expect.any(String) })]));

    const duplicate = await call('createProduct', { body: { data: { type: 'product', attributes: { sku, name: 'Again' } } } });
    expect(duplicate).toMatchObject({ isError: true, status: 409 });
  });

  it('refuses arguments that do not fit the tool before sending anything', async () => {
    const missingId = await call('getOrder', { path: {} });
    expect(missingId.isError).toBe(true);
    expect(missingId.text).toMatch(/path\.id is required.*Nothing was sent/);
    const notBase64 = await call('uploadProductImage', { path: { id: 1 }, body: 'not base64!' });
    expect(notBase64).toMatchObject({ isError: true, text: expect.stringMatching(/base64/) });
    const stray = await call('getSettings', { body: {} });
    expect(stray).toMatchObject({ isError: true, text: expect.stringMatching(/Unknown argument body: this tool takes no arguments/) });
  });

  it("answers 404 for another client's order: tenancy holds through the tools", async () => {
    const other = await sb.newClient();
    const otherSku = uniqueNumber('OTHER');
    await createProducts(sb, other.token, [otherSku]);
    const theirs = await sb.call('POST', '/v3/orders', {
      token: other.token,
      body: orderDocument(other, { items: [{ sku: otherSku, quantity: 1 }] }),
    });
    expect(theirs.status, theirs.raw).toBe(201);
    const answer = await call('getOrder', { path: { id: theirs.body.data.id } });
    expect(answer).toMatchObject({ isError: true, status: 404 });
    expect((await call('getOrder', { path: { id: orderId } })).status).toBe(200);
  });
});

describe('arguments that would lead a call to another route', () => {
  /** Every request the recorded server sent, as `GET /v3/orders/1?query`: the path and query exactly as they went out. */
  const sent: string[] = [];
  let recorded: Client;
  let webhookId: number;

  beforeAll(async () => {
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.pathname !== '/token') sent.push(`${request.method} ${url.pathname}${url.search}`);
      return fetch(request);
    };
    recorded = await inMemory({ baseUrl: sandboxUrl, fetch: recording, username: client.username, password: client.password });
    const webhook = await call('createWebhook', {
      body: {
        data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'http://127.0.0.1:9/hooks' } },
      },
    });
    expect(webhook.status, webhook.text).toBe(201);
    webhookId = webhook.body.data.id;
  });
  afterAll(() => recorded?.close());

  /** The tool's answer and the requests the call sent. */
  async function sendsOf(name: string, args: Record<string, unknown>): Promise<ToolAnswer & { sent: string[] }> {
    sent.length = 0;
    const answer = await call(name, args, recorded);
    return { ...answer, sent: [...sent] };
  }

  it('refuses an object as a path value and sends nothing: cancelOrder {"id": {"../webhooks/1#": ""}} deletes no webhook', async () => {
    const cancel = await sendsOf('cancelOrder', { path: { id: { [`../webhooks/${webhookId}#`]: '' } } });
    expect(cancel).toMatchObject({ isError: true, sent: [] });
    expect(cancel.text).toBe('path.id must be an integer, not an object (/v3/orders/{id}). Nothing was sent.');
    const read = await sendsOf('getOrder', { path: { id: { '../../sandbox/requests#': '' } } });
    expect(read).toMatchObject({ isError: true, sent: [], text: expect.stringMatching(/^path\.id must be an integer, not an object/) });
    expect((await call('getWebhook', { path: { id: webhookId } })).status).toBe(200);
  });

  it('refuses a path value that is not a scalar of its declared type, and a path parameter the operation has not', async () => {
    for (const id of ['../webhooks/1', '..', `${webhookId}#`, [webhookId], 1.5, true, null]) {
      const answer = await sendsOf('cancelOrder', { path: { id } });
      expect(answer, JSON.stringify(id)).toMatchObject({
        isError: true,
        sent: [],
        text: expect.stringMatching(/^path\.id must be an integer, not /),
      });
    }
    const extra = await sendsOf('getOrder', { path: { id: 1, deliveryId: 2 } });
    expect(extra).toMatchObject({
      isError: true,
      sent: [],
      text: expect.stringMatching(/^Unknown path parameter deliveryId: \/v3\/orders\/\{id\} has id\./),
    });
  });

  it('sends a string path value as one encoded segment of its own route, and refuses one that no path keeps', async () => {
    const encoded = await sendsOf('getSandboxRequest', { path: { id: '../../v3/webhooks' } });
    expect(encoded.sent).toEqual(['GET /sandbox/requests/..%2F..%2Fv3%2Fwebhooks']);
    // The request log's own answer: no request of this client has that id.
    expect(encoded, encoded.text).toMatchObject({
      isError: true,
      status: 404,
      body: { errors: [{ detail: 'No resource with this id.' }] },
    });
    for (const id of ['..', '.', '']) {
      const refused = await sendsOf('getSandboxRequest', { path: { id } });
      expect(refused).toMatchObject({
        isError: true,
        sent: [],
        text: expect.stringMatching(/^The path parameter id of .* nothing was sent\.$/),
      });
    }
  });

  it('refuses a query parameter the operation does not declare, and a query value that is not a scalar', async () => {
    const injected = await sendsOf('listOrders', { query: { 'page[size]=1&include': 'orderItems' } });
    expect(injected).toMatchObject({ isError: true, sent: [] });
    expect(injected.text).toMatch(/^Unknown query parameter page\[size\]=1&include: this tool takes page\[cursor\], page\[size\], include/);
    const nested = await sendsOf('listOrders', { query: { include: { orderItems: '' } } });
    expect(nested).toMatchObject({
      isError: true,
      sent: [],
      text: 'query.include must be a string, a number or a boolean, not an object. Nothing was sent.',
    });
  });

  it("sends JSON:API's bracketed query keys encoded, and the sandbox reads them", async () => {
    const skus = [uniqueNumber('BRACKET'), uniqueNumber('BRACKET')];
    await createProducts(sb, client.token, skus);
    const page = await sendsOf('listProducts', { query: { 'page[size]': 1, 'filter[sku][in]': skus.join(',') } });
    expect(page.sent).toEqual([`GET /v3/products?page%5Bsize%5D=1&filter%5Bsku%5D%5Bin%5D=${encodeURIComponent(skus.join(','))}`]);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((product: { attributes: { sku: string } }) => product.attributes.sku)).toEqual([skus[0]]);
  });
});

describe('search_docs', () => {
  it('finds a guide, with its URL on the portal and an excerpt', async () => {
    const { text, isError } = await call('search_docs', { query: 'cursor pagination', limit: 3 });
    expect(isError).toBe(false);
    expect(text).toMatch(/^1\. Pagination \(guide\)\n {3}http:\/\/127\.0\.0\.1:\d+\/docs\/shopapi\/v3\/general-concepts\/pagination\n/);
  });

  it('finds an operation, with its reference page and its tool', async () => {
    const { text } = await call('search_docs', { query: 'advance the clock' });
    expect(text).toContain(`Advance your clock (sandbox) (tool sandboxAdvanceClock)\n   ${sandboxUrl}/specs/v3/sandbox-advance-clock`);
  });

  it('names the calls the server does itself as having no tool', async () => {
    expect((await call('search_docs', { query: 'request an access token', limit: 1 })).text).toContain(
      '(operation requestToken: no tool, this server does it itself)',
    );
  });

  it('says so when nothing matches', async () => {
    expect((await call('search_docs', { query: 'zyxwvut' })).text).toMatch(/^Nothing/);
  });
});

describe('the server process and its failures', () => {
  it('stops with exit code 2 and a clear message when SHOPAPI_PASSWORD is missing', async () => {
    const run = promisify(execFile)(command.command, command.args, {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SHOPAPI_URL: sandboxUrl },
    });
    const failure = await run.then(
      () => undefined,
      (error: { code?: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/SHOPAPI_PASSWORD is not set/);
    expect(failure?.stdout).toBe('');
  });

  it('says the sandbox is not reachable, and how to start it, when nothing listens at SHOPAPI_URL', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const offline = await inMemory({ baseUrl });
    const answer = await call('listOrders', {}, offline);
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`The sandbox is not reachable at ${baseUrl}`);
    expect(answer.text).toContain('npm start');
    await offline.close();
  });

  it('cuts an answer longer than the bound, with a note on page[size]', async () => {
    const large = { data: Array.from({ length: 2000 }, (_, i) => ({ type: 'order', id: i + 1, attributes: { note: 'x'.repeat(80) } })) };
    const fakeFetch = async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/token')) return Response.json({ access_token: 'token', token_type: 'bearer', expires_in: 3600 });
      return new Response(JSON.stringify(large), { headers: { 'content-type': 'application/vnd.api+json', 'request-id': 'r-1' } });
    };
    const memoryClient = await inMemory({ baseUrl: 'http://sandbox.test', fetch: fakeFetch as typeof fetch });
    const answer = await call('listOrders', {}, memoryClient);
    expect(answer.isError).toBe(false);
    expect(answer.requestId).toBe('r-1');
    expect(answer.text.length).toBeLessThan(answerTextMax + 1000);
    expect(answer.text).toMatch(/cut: the answer has \d+ characters.*page\[size\]/);
    await memoryClient.close();
  });
});
