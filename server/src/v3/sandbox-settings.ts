// The client's settings as one sandbox resource: read them, and shape them to mirror a production account.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { SandboxSettingsUpdateDocument } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { apiError } from '../http/errors.ts';
import { replaceSettings, sandboxSettingsOf, type SandboxSettings } from '../domain/reference/settings.ts';
import type { AppContext } from '../app.ts';

const settingsResource = (clientId: number, attributes: SandboxSettings, base: string) => ({
  type: 'sandboxSettings',
  id: clientId,
  attributes,
  links: { self: `${base}/sandbox/settings` },
});

export function sandboxSettingsRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'getSandboxSettings', async (request) => ({
    data: settingsResource(request.client.id, await sandboxSettingsOf(db, request.client.id), baseOf(request)),
  }));

  route<Static<typeof SandboxSettingsUpdateDocument>>(app, 'updateSandboxSettings', async (request) => {
    const { id, attributes } = request.body.data;
    if (id !== undefined && Number(id) !== request.client.id)
      throw apiError('409', `The id in the document (${id}) is not your client id (${request.client.id}).`, { pointer: '/data/id' });
    if (attributes.paymentMethods !== undefined)
      request.warnings.add(
        'ignored',
        'paymentMethods is read-only (always the single method 1) and was not changed.',
        '/data/attributes/paymentMethods',
      );
    const settings = await replaceSettings(db, request.client.id, attributes);
    return { data: settingsResource(request.client.id, settings, baseOf(request)) };
  });
}
