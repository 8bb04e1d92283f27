// The client's settings as data the integrator shapes (sandbox): order types, shipping methods, languages, countries
// and return reasons, read and replaced as one JSON:API resource. GET /settings/get shows the same rows.
import { Type } from '@sinclair/typebox';
import { limits } from './limits.ts';
import { RequestId, Resource, ResourceId, SingleDocument } from './jsonapi.ts';
import { defineOperation } from './operation.ts';
import { WarehouseCodeSchema, printableTrimmed } from './formats.ts';
import { warehouseCodes } from './enums.ts';

export const settingsLimits = {
  codeMax: 50,
  nameMax: 100,
  carrierMax: 50,
  orderTypesMax: 100,
  mainShippingMethodsMax: 50,
  returnShippingMethodsMax: 50,
  languagesMax: limits.v2LanguagesMax,
  countriesMax: 300,
  returnReasonsMax: 100,
  paymentMethodsMax: 10,
} as const;

const Code = (description: string, examples: string[]) =>
  Type.String({ minLength: 1, maxLength: settingsLimits.codeMax, pattern: printableTrimmed, description, examples });
const Name = Type.String({
  minLength: 1,
  maxLength: settingsLimits.nameMax,
  pattern: printableTrimmed,
  description: 'Shown to people; free text.',
});
const Carrier = Type.String({
  minLength: 1,
  maxLength: settingsLimits.carrierMax,
  pattern: printableTrimmed,
  description: 'The carrier, as tracking shows it.',
  examples: ['PostNL'],
});
const EntryId = Type.Optional(
  Type.Union(RequestId.anyOf, {
    description: 'The id of one of your entries of this list: it keeps its id and takes these values. Leave it out for a new entry.',
  }),
);
const codeRule = 'Unique in the list, compared without regard to case; stored as sent.';
const LanguageCode = Type.String({
  pattern: '^[A-Za-z]{2,3}$',
  maxLength: 3,
  description: `ISO 639-1 language code (upper case by default). ${codeRule} The order's locale is made of it in lower case and the delivery country: NL and BE give nl-BE.`,
  examples: ['NL'],
});
const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}(-[A-Za-z0-9]{2,3})?$',
  maxLength: 6,
  description: `ISO 3166 alpha-2 country code, or a sub-territory such as ES-CN. ${codeRule}`,
  examples: ['NL'],
});
const Warehouses = Type.Array(WarehouseCodeSchema, {
  minItems: 1,
  maxItems: warehouseCodes.length,
  uniqueItems: true,
  description:
    'The warehouses that ship with this method. Each gets a shipping method of its own (code `<code>_<warehouse>`), listed in GET /settings/get under the main method; an order fulfilled from a warehouse uses that one.',
});

const entries = <T extends ReturnType<typeof Type.Object>>(item: T, opts: { min?: number; max: number; description: string }) =>
  Type.Optional(Type.Array(item, { ...(opts.min ? { minItems: opts.min } : {}), maxItems: opts.max, description: opts.description }));

/** What PUT /sandbox/settings and `npm run cli -- client create --settings` take: every list optional, each replacing the stored one. */
export const SandboxSettingsInput = Type.Object(
  {
    orderTypes: entries(
      Type.Object(
        {
          id: EntryId,
          code: Code(`What your integration looks the order type up by. ${codeRule}`, ['webwinkel_orders']),
          name: Name,
          allowPartialDelivery: Type.Optional(
            Type.Boolean({
              default: false,
              description:
                "Default false: the order type's orders ship only complete. Informational; each order has its own allowPartialDelivery.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { min: 1, max: settingsLimits.orderTypesMax, description: 'Every order names one; at least one.' },
    ),
    mainShippingMethods: entries(
      Type.Object(
        {
          id: EntryId,
          code: Code(`What your integration looks the method up by. ${codeRule}`, ['POSTNL_STANDARD']),
          name: Name,
          carrier: Carrier,
          warehouses: Warehouses,
        },
        { additionalProperties: false },
      ),
      {
        min: 1,
        max: settingsLimits.mainShippingMethodsMax,
        description:
          'What orders name as preferred shipping method; at least one. The one with the lowest id is the default for orders that name none.',
      },
    ),
    returnShippingMethods: entries(
      Type.Object(
        {
          id: EntryId,
          code: Code(codeRule, ['POSTNL_RETURN']),
          name: Name,
          carrier: Carrier,
          paperless: Type.Optional(
            Type.Boolean({
              default: false,
              description:
                "Default false. True: the consumer needs no printed label (a QR code at the carrier's point); return labels say so.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { max: settingsLimits.returnShippingMethodsMax, description: 'The methods return labels are made for; the first is the default.' },
    ),
    languages: entries(Type.Object({ id: EntryId, code: LanguageCode, name: Name }, { additionalProperties: false }), {
      min: 1,
      max: settingsLimits.languagesMax,
      description: `What v2 orders name as languageId; at least one, at most ${settingsLimits.languagesMax}.`,
    }),
    countries: entries(Type.Object({ id: EntryId, code: CountryCode, name: Name }, { additionalProperties: false }), {
      max: settingsLimits.countriesMax,
      description: 'The countries of your account, as GET /settings/get lists them.',
    }),
    returnReasons: entries(
      Type.Object(
        {
          id: EntryId,
          code: Code(`${codeRule} A v2 RMA line with IsDamaged takes the reason coded DAMAGED, if you have one.`, ['DAMAGED']),
          name: Name,
        },
        { additionalProperties: false },
      ),
      { max: settingsLimits.returnReasonsMax, description: 'Why consumers return goods; return items refer to them.' },
    ),
    paymentMethods: Type.Optional(
      Type.Array(Type.Unknown(), {
        maxItems: settingsLimits.paymentMethodsMax,
        description: 'Read-only: always the single method 1. Accepted so that what GET answers can be sent back, and ignored.',
      }),
    ),
  },
  { additionalProperties: false },
);

const IdCodeName = { id: ResourceId, code: Type.String(), name: Type.String() };

export const SandboxSettingsAttributes = Type.Object({
  orderTypes: Type.Array(Type.Object({ ...IdCodeName, allowPartialDelivery: Type.Boolean() })),
  mainShippingMethods: Type.Array(Type.Object({ ...IdCodeName, carrier: Type.String(), warehouses: Type.Array(WarehouseCodeSchema) })),
  returnShippingMethods: Type.Array(Type.Object({ ...IdCodeName, carrier: Type.String(), paperless: Type.Boolean() })),
  languages: Type.Array(Type.Object(IdCodeName), { maxItems: settingsLimits.languagesMax }),
  countries: Type.Array(Type.Object(IdCodeName)),
  returnReasons: Type.Array(Type.Object(IdCodeName)),
  paymentMethods: Type.Array(Type.Object(IdCodeName), { description: 'Read-only: the single method 1 (payment methods are obsolete).' }),
});

export const SandboxSettings = Resource(
  'sandboxSettings',
  SandboxSettingsAttributes,
  undefined,
  'Your settings; the id is your client id. Every list is ordered by id.',
);

export const SandboxSettingsUpdateDocument = Type.Object({
  data: Type.Object(
    {
      type: Type.Literal('sandboxSettings'),
      id: Type.Optional(Type.Union(RequestId.anyOf, { description: 'Your client id, when sent (409 otherwise).' })),
      attributes: SandboxSettingsInput,
    },
    { additionalProperties: false },
  ),
});

const tags = ['Sandbox'];

const example = {
  orderTypes: [
    { id: 1, code: 'webwinkel_orders', name: 'Webwinkel orders', allowPartialDelivery: false },
    { id: 2, code: 'b2b_orders', name: 'B2B orders', allowPartialDelivery: true },
  ],
  mainShippingMethods: [{ id: 1, code: 'POSTNL_STANDARD', name: 'PostNL Standaard', carrier: 'PostNL', warehouses: ['NR', 'BW'] }],
  returnShippingMethods: [
    { id: 8, code: 'POSTNL_RETURN_QR', name: 'PostNL Retour zonder label (QR-code)', carrier: 'PostNL', paperless: true },
  ],
  languages: [
    { id: 1, code: 'NL', name: 'Nederlands' },
    { id: 2, code: 'EN', name: 'Engels' },
  ],
  countries: [
    { id: 1, code: 'NL', name: 'Netherlands' },
    { id: 2, code: 'BE', name: 'Belgium' },
  ],
  returnReasons: [{ id: 3, code: 'DAMAGED', name: 'Beschadigd ontvangen' }],
  paymentMethods: [{ id: 1, code: 'GI', name: 'Giro' }],
};

export const sandboxSettingsOperations = [
  defineOperation({
    operationId: 'getSandboxSettings',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/settings',
    tags,
    auth: true,
    success: 200,
    summary: 'Read your settings (sandbox)',
    description:
      'Your order types, main and return shipping methods, languages, countries, return reasons and the payment method, with their ids, in the form `PUT /sandbox/settings` takes. A new client starts with defaults that look like a real account (order type `webwinkel_orders`, payment method `GI`, language `NL`, PostNL, DHL and DPD methods); `GET /settings/get` lists the same data in its v2 form.',
    responses: {
      200: {
        description: 'Your settings.',
        schema: SingleDocument(SandboxSettings),
        example: {
          data: { type: 'sandboxSettings', id: 1, attributes: example, links: { self: 'http://127.0.0.1:8080/sandbox/settings' } },
        },
      },
    },
    errors: ['401', '406'],
  }),
  defineOperation({
    operationId: 'updateSandboxSettings',
    documents: ['v3'],
    method: 'PUT',
    path: '/sandbox/settings',
    tags,
    auth: true,
    success: 200,
    summary: 'Shape your settings (sandbox)',
    description: [
      'Makes your sandbox account mirror your production account, so your integration finds the codes it looks up. Each list you send replaces the stored one; a list you leave out stays as it is.',
      '',
      '- An entry with the `id` of one of your entries of that list keeps the id and takes the new values; one without `id` is created; your entries the list leaves out are removed.',
      '- An entry that something uses cannot be removed (409, naming the entry and what uses it): order types that orders or shipments name, main shipping methods (and their per-warehouse methods) that orders or shipments name, return reasons of return items. Keep it in the list with its id; rename it if you like.',
      '- An `id` that is not one of your entries of that list answers 404 with a pointer to it; the same id twice, or a code used twice in one list (compared without regard to case), answers 400.',
      "- Order types, main shipping methods and languages need at least one entry. A main shipping method's `warehouses` make its per-warehouse methods: those of warehouses that stay keep their ids.",
      '',
      'Codes are stored as sent; every lookup by code in the API ignores case. Nothing is written unless everything is valid. `GET /settings/get` shows the change at once. The answer is the settings as stored, every list ordered by id (new entries come last). `paymentMethods` is read-only and ignored when sent. The same document, or only its `attributes`, can be given to `npm run cli -- client create --settings file.json`.',
    ].join('\n'),
    body: SandboxSettingsUpdateDocument,
    requestExample: {
      data: {
        type: 'sandboxSettings',
        attributes: {
          languages: [
            { code: 'NL', name: 'Nederlands' },
            { code: 'EN', name: 'Engels' },
            { code: 'DE', name: 'Duits' },
          ],
          countries: [
            { code: 'NL', name: 'Netherlands' },
            { code: 'BE', name: 'Belgium' },
            { code: 'DE', name: 'Germany' },
          ],
        },
      },
    },
    responses: {
      200: {
        description: 'Your settings after the change.',
        schema: SingleDocument(SandboxSettings),
        example: {
          data: { type: 'sandboxSettings', id: 1, attributes: example, links: { self: 'http://127.0.0.1:8080/sandbox/settings' } },
        },
      },
    },
    errors: ['400', '401', '404', '406', '409', '415'],
  }),
];
