// Authentication, status and settings: shared by v3 and v2 (one token works for both).
import { Type, type TSchema } from '@sinclair/typebox';
import { defineOperation } from './operation.ts';
import { v2Messages } from './errors.ts';

export const TokenRequest = Type.Object({
  grant_type: Type.String({ default: 'password', description: 'Always password.' }),
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the token expires. Keep the token until then.' }),
  userName: Type.String(),
  issued: Type.String({ description: 'RFC 1123 date.', examples: ['Sat, 21 Nov 2026 09:00:00 GMT'] }),
  expires: Type.String({ description: 'RFC 1123 date.' }),
});

export const TokenError = Type.Object({ error: Type.String(), error_description: Type.String() });

/** The v2 envelope around a result schema. */
export function Envelope<Result extends TSchema>(result: Result) {
  return Type.Object({
    messageCode: Type.Union([Type.Literal('OK'), Type.Literal('NOK')]),
    message: Type.String(),
    result,
  });
}

const idNameCode = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() });

export const SettingsResult = Type.Object({
  mainShippingMethods: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      code: Type.String(),
      shippingMethods: Type.Array(Type.Object({ id: Type.Integer(), warehouse: Type.String() })),
    }),
  ),
  shippingMethods: Type.Array(idNameCode),
  returnShippingMethods: Type.Array(idNameCode),
  orderTypes: Type.Array(idNameCode),
  countries: Type.Array(idNameCode),
  languages: Type.Array(idNameCode, { maxItems: 11 }),
  returnReasons: Type.Array(idNameCode),
  paymentMethods: Type.Array(idNameCode, { description: 'Obsolete: always the single method 1.' }),
});

export const readinessMessages = { ready: 'Ready.', notReady: 'Not ready: the database does not answer.' } as const;

const StatusResponse = Envelope(Type.Union([Type.String(), Type.Null()]));

export const authOperations = [
  defineOperation({
    operationId: 'requestToken',
    documents: ['v3', 'v2'],
    method: 'POST',
    path: '/token',
    tags: ['Authentication'],
    auth: false,
    success: 200,
    summary: 'Request an access token',
    description:
      'Form-encoded `grant_type=password`, `username` and `password`. Store the token and use it as `Authorization: Bearer <token>` until it expires (`expires_in` seconds), then request a new one. One token works for v3 and v2.',
    body: TokenRequest,
    bodyContentTypes: ['application/x-www-form-urlencoded'],
    requestExample: { grant_type: 'password', username: 'demo', password: 'secret' },
    responses: {
      200: { description: 'The token.', schema: TokenResponse, contentType: 'application/json' },
      400: {
        description:
          'Wrong credentials (invalid_grant), a grant type other than password (unsupported_grant_type), or a malformed request (invalid_request, also for a body that is not form-encoded).',
        schema: TokenError,
        contentType: 'application/json',
        example: { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' },
      },
      429: {
        description:
          'Too many failed attempts: for this username from your address, from your address, or for this username from all addresses, within the current window (15 minutes unless the sandbox is configured otherwise). The `Retry-After` header gives the seconds until you may try again. Successful requests never count.',
        schema: TokenError,
        contentType: 'application/json',
        headers: { 'Retry-After': 'Seconds until the next attempt is accepted.' },
        example: { error: 'invalid_request', error_description: 'Too many failed attempts to sign in; try again in 840 seconds.' },
      },
    },
  }),
  defineOperation({
    operationId: 'getStatus',
    documents: ['v3'],
    method: 'GET',
    path: '/status',
    aliases: [],
    tags: ['Authentication'],
    auth: false,
    success: 200,
    summary: 'Check the API status',
    description: 'Needs no token.',
    responses: {
      200: {
        description: 'The API is up.',
        schema: StatusResponse,
        contentType: 'application/json',
        example: { messageCode: 'OK', message: v2Messages.status, result: null },
      },
    },
  }),
  defineOperation({
    operationId: 'getReadiness',
    documents: ['v3'],
    method: 'GET',
    path: '/status/ready',
    tags: ['Authentication'],
    auth: false,
    success: 200,
    summary: 'Check that the API can serve requests',
    description:
      'Needs no token. Unlike `GET /status` (the process is up), this asks the database too: a load balancer or orchestrator sends traffic to a process only while it answers 200.',
    responses: {
      200: {
        description: 'The database answers.',
        schema: StatusResponse,
        contentType: 'application/json',
        example: { messageCode: 'OK', message: readinessMessages.ready, result: null },
      },
      503: {
        description: 'The database does not answer.',
        schema: StatusResponse,
        contentType: 'application/json',
        example: { messageCode: 'NOK', message: readinessMessages.notReady, result: null },
      },
    },
  }),
  defineOperation({
    operationId: 'getStatusV2',
    documents: ['v2'],
    method: 'GET',
    path: '/status/get',
    aliases: ['/v2/status/get'],
    tags: ['Status'],
    auth: false,
    success: 200,
    summary: 'Check the API status',
    description: 'Needs no token.',
    responses: {
      200: {
        description: 'The API is up.',
        schema: StatusResponse,
        contentType: 'application/json',
        example: { messageCode: 'OK', message: v2Messages.status, result: null },
      },
    },
  }),
  defineOperation({
    operationId: 'getSettings',
    documents: ['v3', 'v2'],
    method: 'GET',
    path: '/settings/get',
    aliases: ['/v2/settings/get'],
    tags: ['Settings'],
    auth: true,
    success: 200,
    summary: 'Read settings',
    description:
      'Shipping methods (main ones with their per-warehouse methods), order types, countries, languages, return reasons and the payment method, with the ids that orders refer to. Look entries up by `code` (ignoring case): ids differ between accounts, codes do not. Cache the answer and refresh it daily. In the sandbox, `PUT /sandbox/settings` shapes these lists to mirror your production account.',
    responses: {
      200: { description: 'The settings in the v2 envelope.', schema: Envelope(SettingsResult), contentType: 'application/json' },
    },
  }),
];
