// A large upload is written as a stage, a part per statement outside any transaction, and its owner's short transaction
// makes the parts its own (platform/file-parts.ts): other clients' statements run while the parts are written, readers
// see the old file whole until the new one replaces it, and nothing is left of an upload that fails or of one a
// stopped process left half-written (issue 29: A's uploads must not hold B's calls).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../src/platform/db/index.ts';
import { dropAbandonedStages, PART_BYTES, storedFile, storeFile } from '../src/platform/file-parts.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { largePng } from './support/uploads.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

/** What one client's files are in the database: its staged parts, its stages, and usage as booked against the parts. */
async function filesOf(clientId: number, db: Db = sb.database.db) {
  const [row] = await queryRows<Record<string, string | null>>(
    db,
    sql`select (select count(*) from file_parts where client_id = ${clientId} and owner = 'staged') as staged,
      (select count(*) from file_stages where client_id = ${clientId}) as stages,
      (select bytes from storage_usage where client_id = ${clientId}) as booked,
      (select coalesce(sum(octet_length(bytes)), 0) from file_parts where client_id = ${clientId}) as stored`,
  );
  return {
    staged: Number(row.staged),
    stages: Number(row.stages),
    booked: Number(row.booked ?? 0),
    stored: Number(row.stored),
  };
}

const uploadImage = (client: TestClient, productId: number, image: Buffer) =>
  sb.app.inject({
    method: 'POST',
    url: `/v3/products/${productId}/image`,
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'image/png' },
    payload: image,
  });

describe('a large upload, written as a stage', () => {
  it('lets other statements run while its parts are written, and keeps the old image whole until the new one replaces it', async () => {
    const client = await sb.newClient();
    const [productId] = await createProducts(sb, client.token, [uniqueNumber('STAGE')]);
    const old = largePng(2 * PART_BYTES);
    expect((await uploadImage(client, productId, old)).statusCode).toBe(200);

    const image = largePng(9 * 1024 * 1024);
    let answered = false;
    const upload = uploadImage(client, productId, image).finally(() => {
      answered = true;
    });
    // Another connection's reads between the parts: each sees the parts written so far and the old image, whole.
    const seen: { staged: number; imageBytes: number }[] = [];
    while (!answered) {
      const [row] = await queryRows<{ staged: string; image_bytes: string }>(
        sb.database.db,
        sql`select (select count(*) from file_parts where client_id = ${client.id} and owner = 'staged') as staged,
          (select coalesce(sum(octet_length(bytes)), 0) from file_parts where owner = 'productImage' and owner_id = ${productId}) as image_bytes`,
      );
      seen.push({ staged: Number(row.staged), imageBytes: Number(row.image_bytes) });
      await nextTurn();
    }
    expect((await upload).statusCode).toBe(200);
    // The image is the old one or the new one, never a part of either.
    for (const s of seen) expect([old.length, image.length]).toContain(s.imageBytes);
    // Without stages the parts are written in the owner's transaction: nobody sees one before it commits.
    const whileWriting = seen.filter((s) => s.staged > 0 && s.imageBytes === old.length);
    expect(whileWriting.length).toBeGreaterThan(1);
    expect(new Set(whileWriting.map((s) => s.staged)).size).toBeGreaterThan(1);

    expect(Buffer.compare((await storedFile(sb.database.db, 'productImage', productId))!, image)).toBe(0);
    expect(await filesOf(client.id)).toEqual({ staged: 0, stages: 0, booked: image.length, stored: image.length });
  });

  it("leaves nothing when the owner's transaction fails: no part, no stage, the bytes given back", async () => {
    const client = await sb.newClient();
    const bytes = largePng(3 * PART_BYTES + 5);
    const failing = storeFile(sb.database.db, { clientId: client.id, owner: 'orderAttachment', bytes, quota: 0 }, async (tx) => {
      // The parts are all written before the owner's transaction.
      expect((await filesOf(client.id, tx)).staged).toBe(4);
      throw new Error('the owner could not be written');
    });
    await expect(failing).rejects.toThrow('the owner could not be written');
    expect(await filesOf(client.id)).toEqual({ staged: 0, stages: 0, booked: 0, stored: 0 });
  });

  it('refuses a file over the quota before writing a part', async () => {
    const client = await sb.newClient();
    let ownerWritten = false;
    const refused = storeFile(
      sb.database.db,
      { clientId: client.id, owner: 'orderAttachment', bytes: largePng(2 * PART_BYTES), quota: PART_BYTES },
      async () => {
        ownerWritten = true;
        return { ownerId: 1, result: undefined };
      },
    );
    await expect(refused).rejects.toMatchObject({ status: 413 });
    expect(ownerWritten).toBe(false);
    expect(await filesOf(client.id)).toEqual({ staged: 0, stages: 0, booked: 0, stored: 0 });
  });

  it('drops at start the stages a stopped process left, older than asked, and gives their bytes back', async () => {
    const client = await sb.newClient();
    // Two uploads stopped half-way, as a killed process leaves them: one two hours ago, one just now.
    const stages = await queryRows<{ id: number }>(
      sb.database.db,
      sql`insert into file_stages (client_id, created_at) values (${client.id}, now() - interval '2 hours'), (${client.id}, now())
        returning id`,
    );
    for (const { id } of stages) {
      await sb.database.db.execute(
        sql`insert into file_parts (client_id, owner, owner_id, part, bytes) values
          (${client.id}, 'staged', ${id}, 0, '\\x0102'::bytea), (${client.id}, 'staged', ${id}, 1, '\\x03'::bytea)`,
      );
    }
    await sb.database.db.execute(
      sql`insert into storage_usage (client_id, bytes) values (${client.id}, 6)
        on conflict (client_id) do update set bytes = storage_usage.bytes + 6`,
    );
    expect(await dropAbandonedStages(sb.database.db, 3_600_000)).toBe(1);
    expect(await filesOf(client.id)).toEqual({ staged: 2, stages: 1, booked: 3, stored: 3 });
    expect(await dropAbandonedStages(sb.database.db, 0)).toBe(1);
    expect(await filesOf(client.id)).toEqual({ staged: 0, stages: 0, booked: 0, stored: 0 });
  });
});
