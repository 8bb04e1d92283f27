// The client's settings as one sandbox resource: read them, and shape them to mirror a production account.
import type { FastifyInstance } from 'fastify';
import { SandboxSettingsInput } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { compileBodyValidator, validationItems } from '../shared/validation.ts';
import { replaceSettings, sandboxSettingsOf, type SettingsInput } from '../../modules/reference/settings.ts';
import { sandboxSettingsResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError, domainError } from '../../platform/errors.ts';
import { pointerAt, type Locate } from '../shared/problem-pointers.ts';

export function sandboxSettingsRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'getSandboxSettings', async (request) => ({
    data: sandboxSettingsResource(request.client.id, await sandboxSettingsOf(db, request.client.id), baseOf(request)),
  }));

  route(app, 'updateSandboxSettings', async (request) => {
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
    return { data: sandboxSettingsResource(request.client.id, settings, baseOf(request)) };
  });
}

const validateInput = compileBodyValidator(SandboxSettingsInput);

/**
 * Settings given as a file (the CLI): the attributes of PUT /sandbox/settings, or the whole document around them.
 * Checked against the same schema as PUT; `locate` gives the pointer into the file for a path into the settings.
 */
export function settingsFromDocument(document: unknown): { input: SettingsInput; locate: Locate } {
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
  return { input: attributes as SettingsInput, locate: (path) => pointerAt(at, path) || '/' };
}
