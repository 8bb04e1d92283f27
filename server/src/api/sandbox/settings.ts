// The client's settings as one sandbox resource: read them, and shape them to mirror a production account.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { SandboxSettingsInput, type SandboxSettingsUpdateDocument } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { compileBodyValidator, validationItems } from '../shared/validation.ts';
import { replaceSettings, sandboxSettingsOf, type SandboxSettings, type SettingsInput } from '../../modules/reference/settings.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError, domainError } from '../../platform/errors.ts';

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
      throw domainError('409', `The id in the document (${id}) is not your client id (${request.client.id}).`, { pointer: '/data/id' });
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

const validateInput = compileBodyValidator(SandboxSettingsInput);

/**
 * Settings given as a file (the CLI): the attributes of PUT /sandbox/settings, or the whole document around them.
 * Checked against the same schema as PUT; `at` is where the attributes sit, for pointers into the file.
 */
export function settingsFromDocument(document: unknown): { input: SettingsInput; at: string } {
  const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
  const wrapped = isObject(document) && 'data' in document;
  const attributes = wrapped ? (isObject(document.data) ? document.data.attributes : undefined) : document;
  const at = wrapped ? '/data/attributes' : '';
  if (!isObject(attributes)) {
    throw domainError(
      '400',
      'The settings must be a JSON object: the attributes of PUT /sandbox/settings, or the whole document {"data": {"attributes": {...}}}.',
      { pointer: at || '/' },
    );
  }
  if (!validateInput(attributes))
    throw new DomainError(
      validationItems(validateInput.errors ?? [], 'body').map((item) => ({
        ...item,
        pointer: `${at}${item.pointer === '/' ? '' : item.pointer}` || '/',
      })),
    );
  return { input: attributes as SettingsInput, at };
}
