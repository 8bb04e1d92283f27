// v3 webhooks: thin handlers over the webhook service.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { pageOf, paginationLinks } from '../shared/query.ts';
import { createWebhook, deleteWebhook, listWebhooks, requireWebhook, updateWebhook } from '../../modules/webhooks/service.ts';
import { webhookResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';

export function webhookRoutes(app: FastifyInstance, { db, config, baseOf }: AppContext) {
  const targets = { allowPrivateTargets: config.webhookAllowPrivateTargets };

  route(app, 'listWebhooks', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const rows = await listWebhooks(db, request.client.id, page);
    return { data: rows.map((w) => webhookResource(w, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'createWebhook', async (request) => {
    const webhook = await createWebhook(db, request.client.id, request.body.data.attributes, targets);
    return { data: webhookResource(webhook, baseOf(request), { withSecret: true }) };
  });

  route(app, 'getWebhook', async (request) => ({
    data: webhookResource(await requireWebhook(db, request.client.id, request.params.id), baseOf(request)),
  }));

  route(app, 'updateWebhook', async (request) => {
    const webhook = await updateWebhook(db, request.client.id, request.params.id, request.body.data.attributes, targets);
    return { data: webhookResource(webhook, baseOf(request)) };
  });

  route(app, 'deleteWebhook', async (request, reply) => {
    await deleteWebhook(db, request.client.id, request.params.id);
    return reply.code(204).send();
  });
}
