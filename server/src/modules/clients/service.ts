// API clients: creation with their seeded reference data, lookup, and the per-client simulated clock.
import { asc, eq } from 'drizzle-orm';
import {
  countryTemplates,
  languageTemplates,
  mainShippingMethodTemplates,
  orderTypeTemplates,
  returnReasonTemplates,
  returnShippingMethodTemplates,
} from '@shopapi/contract';
import { isUniqueViolation, schema, type Db } from '../../platform/db/index.ts';
import type { Client } from './client.ts';
import { hashPassword } from './passwords.ts';
import { revokeClientTokens } from './tokens.ts';
import type { TokenCache } from './token-cache.ts';
import { applySettings, type SettingsInput } from '../reference/settings.ts';

const { clients, orderTypes, returnReasons, shippingMethods, languages, countries } = schema;

export class UsernameTakenError extends Error {
  constructor(username: string) {
    super(`A client with username "${username}" already exists.`);
  }
}

/** The client's simulated "now": real time plus the client's clock offset. */
export function clientNow(clock: Pick<Client, 'clockOffsetSeconds'>): Date {
  return timeAtOffset(clock.clockOffsetSeconds);
}

/** What a clock with this offset shows now (an advance's target, for instance). */
export const timeAtOffset = (offsetSeconds: number): Date => new Date(Date.now() + offsetSeconds * 1000);

/**
 * A new client with the default settings, or with `settings` applied over them (lists it leaves out keep the defaults):
 * invalid settings create no client.
 */
export async function createClient(db: Db, input: { username: string; password: string; settings?: SettingsInput }): Promise<Client> {
  if (!/^[A-Za-z0-9._@-]{3,100}$/.test(input.username)) throw new Error('The username must be 3 to 100 letters, digits or . _ @ -.');
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [client] = await tx.insert(clients).values({ username: input.username, passwordHash }).returning();
      await seedReferenceData(tx, client.id);
      if (input.settings) await applySettings(tx, client.id, input.settings);
      return {
        id: client.id,
        username: client.username,
        defaultWarehouse: client.defaultWarehouse,
        clockOffsetSeconds: client.clockOffsetSeconds,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'clients_username_key')) throw new UsernameTakenError(input.username);
    throw error;
  }
}

function checkPassword(password: string) {
  if (password.length < 8) throw new Error('The password must be at least 8 characters long.');
}

/** Gives the client a new password and revokes its tokens, in one transaction; false when no client has the username. */
export async function setClientPassword(db: Db, cache: TokenCache, input: { username: string; password: string }): Promise<boolean> {
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const clientId = await db.transaction(async (tx) => {
    const [client] = await tx
      .update(clients)
      .set({ passwordHash })
      .where(eq(clients.username, input.username))
      .returning({ id: clients.id });
    if (client) await revokeClientTokens(tx, cache, client.id);
    return client?.id;
  });
  // Committed: a check that read the tokens as live meanwhile may have cached them.
  if (clientId !== undefined) cache.forgetClient(clientId);
  return clientId !== undefined;
}

async function seedReferenceData(db: Db, clientId: number) {
  await db.insert(orderTypes).values(orderTypeTemplates.map((t) => ({ clientId, ...t })));
  await db.insert(returnReasons).values(returnReasonTemplates.map((t) => ({ clientId, ...t })));
  await db.insert(languages).values(languageTemplates.map((t) => ({ clientId, ...t })));
  await db.insert(countries).values(countryTemplates.map((t) => ({ clientId, ...t })));
  for (const main of mainShippingMethodTemplates) {
    const [row] = await db
      .insert(shippingMethods)
      .values({ clientId, kind: 'main', code: main.code, name: main.name, carrier: main.carrier })
      .returning({ id: shippingMethods.id });
    await db.insert(shippingMethods).values(
      main.warehouses.map((warehouse) => ({
        clientId,
        kind: 'warehouse' as const,
        code: `${main.code}_${warehouse}`,
        name: `${main.name} (${warehouse})`,
        carrier: main.carrier,
        mainShippingMethodId: row.id,
        warehouse,
      })),
    );
  }
  await db.insert(shippingMethods).values(returnShippingMethodTemplates.map((t) => ({ clientId, kind: 'return' as const, ...t })));
}

export async function findClientByUsername(db: Db, username: string) {
  const [row] = await db.select().from(clients).where(eq(clients.username, username));
  return row;
}

export async function listClients(db: Db) {
  return db.select({ id: clients.id, username: clients.username, createdAt: clients.createdAt }).from(clients).orderBy(asc(clients.id));
}

export const asClient = (row: typeof clients.$inferSelect): Client => ({
  id: row.id,
  username: row.username,
  defaultWarehouse: row.defaultWarehouse,
  clockOffsetSeconds: row.clockOffsetSeconds,
});

/** The id of every client, in order: the warehouse works for each of them on real time. */
export async function allClientIds(db: Db): Promise<number[]> {
  return (await db.select({ id: clients.id }).from(clients).orderBy(asc(clients.id))).map((row) => row.id);
}
