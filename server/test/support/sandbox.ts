// Test sandbox: the real app on a real database (PGlite in memory, or a fresh PostgreSQL database per test file),
// with an HTTP caller that checks every answer against the generated OpenAPI document.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, composeServices } from '../../src/app.ts';
import type { ModuleServices } from '../../src/modules/services.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { createClient } from '../../src/modules/clients/service.ts';
import { documentsOutOfStep } from '../../src/representation/index.ts';
import { checkAgainstOpenApi } from './openapi-check.ts';
import { openTestDatabase } from './bed/database.ts';

export { dbKind } from './bed/database.ts';

export const JSONAPI = 'application/vnd.api+json';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Form-encoded body instead of JSON. */
  form?: Record<string, string>;
  payload?: string | Buffer;
  /** The client's address as the server sees it (inject's default is 127.0.0.1). */
  remoteAddress?: string;
}

export interface TestClient {
  id: number;
  username: string;
  password: string;
  token: string;
  /** The client's own order type and main shipping method ids, as GET /settings/get lists them. */
  orderTypeIds: number[];
  mainShippingMethodIds: number[];
  /** The client's own language ids (v2 orders name one as languageId), in the order GET /settings/get lists them. */
  languageIds: number[];
}

export interface TestSandbox {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The app's module services (its token cache, its event payloads), for tests that call module functions directly. */
  services: ModuleServices;
  call<T = any>(method: string, url: string, opts?: CallOptions): Promise<Answer<T>>;
  newClient(): Promise<TestClient>;
  close(): Promise<void>;
}

/** `onDisk`: PGlite in a temporary data folder instead of in memory (PostgreSQL is unaffected). */
export async function startSandbox(
  overrides: Partial<Config> = {},
  opts: { onDisk?: boolean } = {},
): Promise<TestSandbox & { databaseUrl?: string }> {
  const { database, url } = await openTestDatabase(opts.onDisk ?? false);
  // Tests read the warehouse right after an advance: the call waits for the whole catch-up, however loaded the machine
  // (the tests of 202 answers set a short wait).
  const config = loadConfig({ logLevel: 'silent', publicUrl: 'http://sandbox.test', sandboxAdvanceWaitMs: 120_000, ...overrides });
  const services = composeServices(config);
  const app = await buildApp({ db: database.db, config, services, logger: false });
  await app.ready();

  async function call<T>(method: string, url: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) };
    let payload: string | Buffer | undefined = opts.payload;
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(opts.form).toString();
    } else if (opts.body !== undefined) {
      headers['content-type'] = url.startsWith('/v3') || url.startsWith('/sandbox') ? JSONAPI : 'application/json';
      payload = JSON.stringify(opts.body);
    }
    Object.assign(headers, opts.headers);
    const response = await app.inject({ method: method as never, url, headers, payload, remoteAddress: opts.remoteAddress });
    let body: unknown = response.body;
    try {
      body = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      // not JSON: the check below says whether that was documented
    }
    checkAgainstOpenApi(method, url, response.statusCode, String(response.headers['content-type'] ?? ''), body);
    return { status: response.statusCode, body: body as T, headers: response.headers as Answer['headers'], raw: response.body };
  }

  let clientCounter = 0;
  async function newClient(): Promise<TestClient> {
    const username = `client${++clientCounter}_${randomBytes(3).toString('hex')}`;
    const password = randomBytes(12).toString('base64url');
    const client = await createClient(database.db, { username, password });
    const answer = await call<{ access_token: string }>('POST', '/token', { form: { grant_type: 'password', username, password } });
    if (answer.status !== 200) throw new Error(`token request failed: ${answer.raw}`);
    const token = answer.body.access_token;
    const settings = await call<{
      result: { orderTypes: { id: number }[]; mainShippingMethods: { id: number }[]; languages: { id: number }[] };
    }>('GET', '/settings/get', { token });
    return {
      id: client.id,
      username,
      password,
      token,
      orderTypeIds: settings.body.result.orderTypes.map((t) => t.id),
      mainShippingMethodIds: settings.body.result.mainShippingMethods.map((m) => m.id),
      languageIds: settings.body.result.languages.map((l) => l.id),
    };
  }

  return {
    app,
    database,
    config,
    services,
    call,
    newClient,
    databaseUrl: url,
    close: async () => {
      await app.close();
      // Every write the test made went through the triggers that keep the stored resource JSON: it must equal what the
      // representation's expressions write now, for every order and item the test left.
      const outOfStep = await documentsOutOfStep(database.db).finally(() => database.close());
      if (outOfStep.orders.length || outOfStep.orderItems.length)
        throw new Error(`stored JSON out of step with the representation: ${JSON.stringify(outOfStep)}`);
    },
  };
}

/** A test sandbox listening on a free port of 127.0.0.1, for tests whose calls go over real HTTP (fetch, a child process). */
export async function startListeningSandbox(overrides: Partial<Config> = {}): Promise<{ sb: TestSandbox; baseUrl: string }> {
  const sb = await startSandbox(overrides);
  await sb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = sb.app.server.address() as AddressInfo;
  return { sb, baseUrl: `http://127.0.0.1:${port}` };
}
