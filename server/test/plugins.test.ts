// The app's plugins are named and declare what they need registered before them, so Fastify checks the registration
// order at boot rather than comments in app.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { v3Plugin } from '../src/api/v3/plugin.ts';
import { v2Plugin } from '../src/api/v2/plugin.ts';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

describe('the plugins', () => {
  it('each have a name of their own, the API plugins among them', () => {
    const registered = (sb.app as unknown as Record<symbol, string[]>)[Symbol.for('registered-plugin')];
    expect(registered.filter((name) => /-auto-/.test(name))).toEqual([]);
    for (const name of [
      'shopapi-metrics',
      'shopapi-bearer-auth',
      'shopapi-rate-limit',
      'shopapi-jsonapi',
      'shopapi-portal',
      'shopapi-console',
    ])
      expect(registered).toContain(name);
    expect(registered).toEqual(expect.arrayContaining(['shopapi-auth-api', 'shopapi-v3', 'shopapi-sandbox', 'shopapi-v2']));
  });

  it('an API plugin registered without the plugins it needs fails at boot, naming the first that is missing', async () => {
    for (const [plugin, name] of [
      [v3Plugin, 'shopapi-v3'],
      [v2Plugin, 'shopapi-v2'],
    ] as const) {
      const bare = Fastify({ logger: false });
      bare.register(plugin, { db: sb.database.db, config: sb.config, services: sb.services } as never);
      const error = await bare.ready().then(
        () => undefined,
        (e: { code?: string; message: string }) => e,
      );
      expect(error?.code, name).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
      expect(error?.message, name).toContain(`'shopapi-request-log' of plugin '${name}'`);
      await bare.close().catch(() => undefined);
    }
  });
});
