// The tenant rule of docs/ARCHITECTURE.md (modules) as `npm run lint` checks it (scripts/check-tenant-parameters.ts):
// what it refuses, what it lets through, and that the server's modules and warehouse keep it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tenantProblems } from '../../scripts/check-tenant-parameters.ts';

const check = (text: string) => tenantProblems('f.ts', text).map((problem) => problem.replace(/^f\.ts:\d+ /, ''));

describe('the tenant rule', () => {
  it('refuses a Client used only for its id, a picked client, a tenant after other values, another name or type', () => {
    expect(
      check(`
        export async function onlyId(db: Db, client: Client, x: number) { return client.id + x; }
        export async function picked(db: Db, client: Pick<Client, 'id'>) { return client.id; }
        export async function late(db: Db, x: number, clientId: number) { return x + clientId; }
        export const named = async (tx: Tx, tenant: Client) => tenant.defaultWarehouse;
        export async function typed(db: Db, clientId: string) { return clientId; }
      `),
    ).toEqual([
      'onlyId: uses only client.id; take clientId: number, so a caller that knows only the id can call it',
      "picked: client is typed Pick<Client, 'id'>; type it Client, or take clientId: number",
      'late: x before the tenant; it comes right after the database and the ports',
      'named: the Client parameter is called tenant; call it client',
      'typed: clientId is typed string; type it number',
    ]);
  });

  it('lets through a Client whose clock or warehouse is read or that is handed on, and an id after the ports', () => {
    expect(
      check(`
        export async function clock(db: Db, client: Client) { return clientNow(client); }
        export async function warehouse(tx: Tx, payloads: EventPayloads, client: Client) { return client.defaultWarehouse + client.id; }
        export const handed = (db: Db, services: ModuleServices, client: Client) => runSlice(db, services, client);
        export async function byId(db: Db, placing: OrderPlacing, clientId: number, id: number) { return clientId + id; }
        class Cache { remember(hash: string, client: Client) { return client.id; } }
      `),
    ).toEqual([]);
  });

  it('holds in server/src/modules and server/src/warehouse', () => {
    const server = join(import.meta.dirname, '..', 'src');
    const files = ['modules', 'warehouse'].flatMap((folder) =>
      readdirSync(join(server, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => join(server, folder, name)),
    );
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap((path) => tenantProblems(path, readFileSync(path, 'utf8')))).toEqual([]);
  });
});
