// v2 orders: add (flat address fields), release, search. Stored as v3 orders: readable at /v3/orders.
import { Type } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { v2Messages } from '../errors.ts';
import { defineOperation } from '../operation.ts';
import { badRequestResponse, foundOrNotResponse, nullableString, okResponse, warehouseIdDescription } from './common.ts';

const text = (max: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()], description ? { description } : {}));
const extra = () => text(limits.metadataExtraMax);

/** The address fields an order carries flat, once for delivery and once for billing. */
function addressFields<P extends string>(prefix: P) {
  return {
    [`${prefix}FirstName`]: text(100),
    [`${prefix}Insertion`]: text(20, 'Name prefix such as "van der".'),
    [`${prefix}ExtraName`]: text(100, 'Company name.'),
    [`${prefix}HouseNumberAddition`]: text(20),
    [`${prefix}Region`]: text(100),
    [`${prefix}ExtraAddress`]: text(100, 'Second address line.'),
  };
}

const houseNumber = Type.Optional(
  Type.Union([Type.Integer({ minimum: 0, maximum: 999999 }), Type.Null()], {
    description:
      'Required for NL, BE and DE. When missing it is taken from the end of the street ("Kerkstraat 12a"); when still missing the order is stored as Not Valid and not shipped until a house number is added.',
  }),
);

export const V2OrderItem = Type.Object({
  sku: Type.String({ minLength: limits.skuMin, maxLength: limits.skuMax }),
  quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
  price: Type.Number({ minimum: 0, maximum: 1e9, description: 'Price per unit.' }),
  name: text(250, 'Falls back to the product name.'),
  vat: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 99.9 }), Type.Null()], {
      description:
        'VAT rate, as a percentage or a fraction: a value from 1 up is a percentage (21 is 21 %), a value below 1 a fraction (0.21 is 21 %); 0 is no VAT. Both are stored as the fraction v3 shows (vat 0.21).',
    }),
  ),
  extra6: extra(),
  extra7: extra(),
  warehouseId: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: `Ship this item from this warehouse. ${warehouseIdDescription} An unknown id fails the order.`,
    }),
  ),
});

export const V2OrderAdd = Type.Object(
  {
    externalOrderNumber: Type.String({ minLength: 1, maxLength: limits.externalOrderNumberMax, description: 'Your order number; unique.' }),
    paymentMethodId: Type.Integer({ description: 'Obsolete: always 1.' }),
    languageId: Type.Integer({ description: "A language id of GET /settings/get; with the delivery country it makes the order's locale." }),
    orderTypeId: Type.Integer({ description: 'An order type id of GET /settings/get.' }),
    shippingMethodId: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description:
          'Leave empty unless it overrides the default: a main shipping method id, or a shipping method id of one warehouse (which then ships the order).',
      }),
    ),
    warehouseId: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description: `Ship the order from this warehouse. ${warehouseIdDescription} An unknown id fails the order.`,
      }),
    ),
    extraReference: text(100, 'Your reference.'),
    clientReference: text(100, "The consumer's reference."),
    actionCode: text(100, 'Promotion code.'),
    preferredShippingDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    partialDelivery: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'Allow shipping in parts; default false.' })),
    onHold: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], { description: 'An order added on hold waits for POST /order/release.' }),
    ),
    email: text(254),
    phoneNumber: text(limits.phoneNumberMax),
    currency: text(3, 'Currency code; EUR when empty.'),
    vatNumber: text(50),
    deliveryAddressLastName: Type.String({ minLength: 1, maxLength: 100 }),
    deliveryAddressStreet: Type.String({ minLength: 1, maxLength: 100 }),
    deliveryAddressHouseNumber: houseNumber,
    deliveryAddressPostalCode: text(20, 'Required for NL, BE, DE and most other countries.'),
    deliveryAddressCityName: Type.String({ minLength: 1, maxLength: 100 }),
    deliveryAddressCountryIso: Type.String({ pattern: '^[A-Za-z]{2}(-[A-Za-z0-9]{2,3})?$', description: 'ISO 3166 alpha-2 country code.' }),
    ...addressFields('deliveryAddress'),
    billingAddressLastName: text(100, 'Leave every billing field empty to bill the delivery address.'),
    billingAddressStreet: text(100),
    billingAddressHouseNumber: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 999999 }), Type.Null()])),
    billingAddressPostalCode: text(20),
    billingAddressCityName: text(100),
    billingAddressCountryIso: text(6),
    ...addressFields('billingAddress'),
    pickUpPointId: text(100, "The carrier's id of the pick-up point; the other pick-up point fields describe it."),
    pickUpPointName: text(100),
    pickUpPointStreet: text(100),
    pickUpPointHouseNumber: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 20 }), Type.Null()])),
    pickUpPointHouseNumberAddition: text(20),
    pickUpPointPostalCode: text(20),
    pickUpPointCityName: text(100),
    pickUpPointCountryIso: text(6),
    pickUpPointRegion: text(100),
    pickUpPointExtraAddress: text(100),
    extra1: extra(),
    extra2: extra(),
    extra3: extra(),
    extra4: extra(),
    extra5: extra(),
    orderItems: Type.Array(V2OrderItem, { minItems: 1, maxItems: limits.orderItemsMax }),
  },
  { description: 'Keys may be PascalCase, camelCase or lower case; form-urlencoded bodies name items OrderItems[0][Sku].' },
);

export const V2OrderSearchResult = Type.Object({
  orderNumber: Type.Integer({ description: 'The order id; the same order is /v3/orders/{orderNumber}.' }),
  externalOrderNumber: Type.String(),
  extra1: nullableString,
  extra2: nullableString,
  extra3: nullableString,
  extra4: nullableString,
  extra5: nullableString,
});

const ExternalOrderNumberBody = Type.Object({
  externalOrderNumber: Type.String({ minLength: 1, maxLength: limits.externalOrderNumberMax }),
});
const searchExample = {
  orderNumber: 1001,
  externalOrderNumber: 'SHOP-10001',
  extra1: 'gift',
  extra2: null,
  extra3: null,
  extra4: null,
  extra5: null,
};
const notFound = { description: "No order with this externalOrderNumber (or another client's)." };

const tags = ['Orders'];

export const v2OrderOperations = [
  defineOperation({
    operationId: 'addOrderV2',
    documents: ['v2'],
    method: 'POST',
    path: '/order/add',
    aliases: ['/v2/order/add'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Add an order',
    description:
      'Deprecated: use POST /v3/orders. Adds an order with flat delivery, billing and pick-up point fields. Empty billing fields bill the delivery address; paymentMethodId must be 1; currency is EUR when empty. The postal code is required for NL, BE and DE; so is the house number, taken from the street when missing, and without one the order is stored as Not Valid and not shipped until fixed. An unknown warehouseId, on the order or an item, fails the order. The result is the new order number, the id of the order in v3. What the sandbox read differently from what was sent (a house number taken from the street, a VAT rate below 1 read as a fraction, unknown keys dropped) and every default it applied comes back in a `Sandbox-Warning` header.',
    body: V2OrderAdd,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    requestExample: {
      externalOrderNumber: 'SHOP-10001',
      paymentMethodId: 1,
      languageId: 1,
      orderTypeId: 1,
      deliveryAddressFirstName: 'Jane',
      deliveryAddressLastName: 'Jansen',
      deliveryAddressStreet: 'Kerkstraat',
      deliveryAddressHouseNumber: 12,
      deliveryAddressHouseNumberAddition: 'a',
      deliveryAddressPostalCode: '4701AB',
      deliveryAddressCityName: 'Roosendaal',
      deliveryAddressCountryIso: 'NL',
      email: 'jane@example.com',
      extra1: 'gift',
      orderItems: [{ sku: 'SKU-TSHIRT-M', quantity: 2, price: 19.95, vat: 21 }],
    },
    responses: {
      200: okResponse('The order was added; the result is its order number.', Type.Integer(), {
        message: v2Messages.orderAdded,
        result: 1001,
      }),
      400: badRequestResponse({ messageCode: 'NOK', message: 'SKU "SKU-UNKNOWN" not found.', result: null }),
    },
  }),
  defineOperation({
    operationId: 'releaseOrderV2',
    documents: ['v2'],
    method: 'POST',
    path: '/order/release',
    aliases: ['/v2/order/release'],
    tags,
    auth: true,
    success: 200,
    summary: 'Release an order on hold',
    description:
      'An order added with onHold true waits until this call releases it. Releasing an order that is not on hold changes nothing.',
    body: ExternalOrderNumberBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    requestExample: { externalOrderNumber: 'SHOP-10001' },
    responses: {
      200: okResponse('The order is released.', Type.Null(), { message: v2Messages.requestProcessed, result: null }),
      400: badRequestResponse(),
      404: notFound,
    },
    errors: ['404'],
  }),
  defineOperation({
    operationId: 'searchOrderV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/order/search',
    aliases: ['/order/search'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Find an order by external order number',
    description: `Deprecated: use GET /v3/orders?filter[externalOrderNumber][in]=... The order number and free fields of your order. An unknown number (or another client's) answers HTTP 404 with the v2 not-found body, which the client libraries that read an order with this call map to "not found". POST /order/search answers the same miss with HTTP 200 and messageCode NOK instead.`,
    query: ExternalOrderNumberBody,
    responses: {
      200: okResponse('The order.', V2OrderSearchResult, { message: v2Messages.orderFound, result: searchExample }),
      400: badRequestResponse(),
      404: notFound,
    },
    errors: ['404'],
  }),
  defineOperation({
    operationId: 'searchOrderByPostV2',
    documents: ['v2'],
    method: 'POST',
    path: '/order/search',
    aliases: ['/v2/order/search'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Find an order by external order number (POST)',
    description: `Deprecated: use GET /v3/orders?filter[externalOrderNumber][in]=... Same as GET /v2/order/search with the number in the body, but for a miss: an unknown number (or another client's) answers HTTP 200 with messageCode NOK "${v2Messages.orderNotFound}" and result null, where the GET form answers 404. The client libraries that search with POST read messageCode to tell a new order from an existing one, and their HTTP libraries throw on a 4xx.`,
    body: ExternalOrderNumberBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    requestExample: { externalOrderNumber: 'SHOP-10001' },
    responses: {
      200: foundOrNotResponse(
        'The order.',
        V2OrderSearchResult,
        { message: v2Messages.orderFound, result: searchExample },
        v2Messages.orderNotFound,
      ),
      400: badRequestResponse(),
    },
  }),
];
