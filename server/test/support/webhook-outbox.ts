// Webhooks and events written straight into the outbox, for the tests of delivery: a webhook per receiver path, with
// its own secret, and events emitted as the modules emit them (in a transaction of their own).
import { randomBytes } from 'node:crypto';
import { emitEvent } from '../../src/modules/webhooks/outbox.ts';
import { schema, type Db } from '../../src/platform/db/index.ts';
import type { Receiver } from './webhook-receiver.ts';

/** A webhook row as the webhooks service stores it, pointed at `path` of the receiver, which knows its secret. */
export async function createWebhook(receiver: Receiver, db: Db, clientId: number, event: string, path: string) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const [row] = await db
    .insert(schema.webhooks)
    .values({
      clientId,
      entity: event.split('.')[0],
      event,
      targetUrl: receiver.url(path),
      secret,
    })
    .returning();
  receiver.secrets.set(path, secret);
  return row;
}

/** Emits a shipment event in a transaction of its own. */
export async function emit(db: Db, clientId: number, type: string, entityId: number, status: string) {
  await db.transaction(async (tx) => {
    await emitEvent(tx as unknown as Db, clientId, {
      type,
      entity: 'shipment',
      entityId,
      occurredOn: new Date(),
      data: { type: 'shipment', id: entityId, attributes: { status } },
    });
  });
}
