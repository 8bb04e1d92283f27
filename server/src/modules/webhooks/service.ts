// Webhook subscriptions: valid entity/event pairs, reachable public target URLs, a signing secret shown once, and at
// most limits.webhooksPerClientMax of them per client.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { limits, webhookEvents, type WebhookEntity } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { refusedTarget } from '../../platform/outbound-guard.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

const { clients, webhooks } = schema;
export type WebhookRow = typeof webhooks.$inferSelect;

/** Standard Webhooks secret: whsec_ and the base64 of 24 random bytes. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Refuses URLs that are not http(s), and hosts that are or resolve to anything but public unicast addresses (private,
 * loopback, link-local, unique-local, carrier-grade NAT, reserved, IPv6 forms embedding those...), so the sandbox
 * cannot be aimed at its own network. The dispatcher checks the address again when it connects, since DNS answers can change.
 */
async function checkTargetUrl(targetUrl: string, allowPrivateTargets: boolean, problems: ProblemCollector) {
  const url = new URL(targetUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.add('400', 'targetUrl must be an http or https URL.', { path: ['targetUrl'] });
    return;
  }
  if (allowPrivateTargets) return;
  const refused = await refusedTarget(url.hostname);
  if (refused) {
    problems.add('400', `targetUrl is refused: ${refused}; this sandbox sends webhooks to public addresses only.`, {
      path: ['targetUrl'],
    });
  }
}

function checkPair(entity: string, event: string, problems: ProblemCollector) {
  const allowed: readonly string[] = webhookEvents[entity as WebhookEntity] ?? [];
  if (!allowed.includes(event))
    problems.add('400', `${event} is not an event of ${entity}; its events are ${allowed.join(', ')}.`, { path: ['event'] });
}

export async function createWebhook(
  db: Db,
  clientId: number,
  input: { entity: string; event: string; targetUrl: string; isActive?: boolean },
  opts: { allowPrivateTargets: boolean },
): Promise<WebhookRow> {
  const problems = new ProblemCollector();
  checkPair(input.entity, input.event, problems);
  await checkTargetUrl(input.targetUrl, opts.allowPrivateTargets, problems);
  problems.throwIfAny();
  return db.transaction(async (tx) => {
    // One registration of the client's at a time (from any process): the count below holds until this one commits. No
    // key update: orders and other rows that reference the client are still written meanwhile.
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).for('no key update');
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(webhooks).where(ownedBy(webhooks, clientId));
    if (count >= limits.webhooksPerClientMax)
      throw domainError(
        '409',
        `You have ${count} webhooks, the most a client may have (${limits.webhooksPerClientMax}); delete one before registering another.`,
      );
    const [row] = await tx
      .insert(webhooks)
      .values({
        clientId,
        entity: input.entity,
        event: input.event,
        targetUrl: input.targetUrl,
        isActive: input.isActive ?? true,
        secret: newSecret(),
      })
      .returning();
    return row;
  });
}

export async function findWebhook(db: Db, clientId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(ownedBy(webhooks, clientId), eq(webhooks.id, id)));
  return row;
}

export async function requireWebhook(db: Db, clientId: number, id: number): Promise<WebhookRow> {
  const row = await findWebhook(db, clientId, id);
  if (!row) throw domainError('404', `Webhook ${id} not found.`);
  return row;
}

export async function listWebhooks(db: Db, clientId: number, page: Page): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(and(ownedBy(webhooks, clientId), gt(webhooks.id, page.cursor)))
    .orderBy(asc(webhooks.id))
    .limit(page.size);
}

/** Only targetUrl and isActive change; entity and event may be repeated but not changed. */
export async function updateWebhook(
  db: Db,
  clientId: number,
  id: number,
  changes: { targetUrl?: string; isActive?: boolean; entity?: string; event?: string },
  opts: { allowPrivateTargets: boolean },
): Promise<WebhookRow> {
  const problems = new ProblemCollector();
  if (changes.targetUrl !== undefined) await checkTargetUrl(changes.targetUrl, opts.allowPrivateTargets, problems);
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .select()
      .from(webhooks)
      .where(and(ownedBy(webhooks, clientId), eq(webhooks.id, id)))
      .for('update');
    if (!stored) throw domainError('404', `Webhook ${id} not found.`);
    for (const name of ['entity', 'event'] as const) {
      if (changes[name] !== undefined && changes[name] !== stored[name])
        problems.add('400', `${name} cannot change; only targetUrl and isActive can. Register a new webhook instead.`, {
          path: [name],
        });
    }
    problems.throwIfAny();
    // Switching a webhook on again starts its failure count afresh.
    const reactivated = changes.isActive === true && !stored.isActive;
    const [row] = await tx
      .update(webhooks)
      .set({
        targetUrl: changes.targetUrl ?? stored.targetUrl,
        isActive: changes.isActive ?? stored.isActive,
        ...(reactivated ? { consecutiveFailures: 0, deactivatedAt: null } : {}),
        updatedAt: new Date(),
      })
      .where(and(ownedBy(webhooks, clientId), eq(webhooks.id, id)))
      .returning();
    return row;
  });
}

export async function deleteWebhook(db: Db, clientId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(webhooks)
    .where(and(ownedBy(webhooks, clientId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  if (!deleted.length) throw domainError('404', `Webhook ${id} not found.`);
}
