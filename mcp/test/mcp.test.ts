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
import { operations } from '@shopapi/contract';
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

  /** The server in memory, with its own fetch (a closed port, a large answer). */
  async function inMemory(options: { baseUrl: string; fetch?: typeof fetch }): Promise<Client> {
    const server = createMcpServer({ username: 'demo', password: 'secret', ...options });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const memoryClient = new Client({ name: 'mcp-test', version: '1.0.0' });
    await memoryClient.connect(clientSide);
    return memoryClient;
  }

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
