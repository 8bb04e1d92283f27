// The module test bed: the module services on a test database, without Fastify, the APIs, the representation or the
// composition root. Its services are the ones an app composes, but with a payload port that records what it was asked.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../src/platform/db/index.ts';
import type { Client } from '../../../src/modules/clients/client.ts';
import { createClient } from '../../../src/modules/clients/service.ts';
import { TokenCache } from '../../../src/modules/clients/token-cache.ts';
import { sql } from 'drizzle-orm';
import { orderPlacing, type PlacementHook } from '../../../src/modules/orders/repository.ts';
import type { ModuleServices } from '../../../src/modules/services.ts';
import { openTestDatabase } from './database.ts';

export interface ModuleTestBed {
  db: Db;
  services: ModuleServices;
  /** What the event payload port was asked for, in order. */
  payloads: { entity: 'shipment' | 'inbound'; id: number }[];
  /** A new client with its seeded reference data (order types, shipping methods, …), as createClient leaves it. */
  newClient(): Promise<Client>;
  close(): Promise<void>;
}

/**
 * `placement`: a hook for the placing statement (none: it writes only the order's own rows). The placed order's shortfall
 * is always an empty list here: its rules live in the shipments module (newOrderShortfall), which app.ts composes and
 * the API tests check (scenarios.test.ts); the bed serves every module area's tests and pulls in none of them.
 */
export async function openModuleTestBed(opts: { placement?: PlacementHook } = {}): Promise<ModuleTestBed> {
  const { database } = await openTestDatabase(false);
  const payloads: ModuleTestBed['payloads'] = [];
  const services: ModuleServices = {
    tokenCache: new TokenCache(),
    eventPayloads: {
      async shipment(_tx, id) {
        payloads.push({ entity: 'shipment', id });
        return { type: 'shipment', id };
      },
      async inbound(_tx, id) {
        payloads.push({ entity: 'inbound', id });
        return { type: 'inbound', id };
      },
    },
    orderPlacing: orderPlacing({ shortfall: sql`'[]'::json`, hook: opts.placement }),
  };
  return {
    db: database.db,
    services,
    payloads,
    newClient: () =>
      createClient(database.db, { username: `m_${randomBytes(5).toString('hex')}`, password: randomBytes(12).toString('base64url') }),
    close: () => database.close(),
  };
}
