// v3 order side: orders, order items, addresses, pick-up points, attachments.
import { Type } from '@sinclair/typebox';
import { limits, uploadPaceText } from '../limits.ts';
import { printStrategies } from '../enums.ts';
import {
  CountryCode,
  CurrencyCode,
  DateOnly,
  DateTime,
  Email,
  Locale,
  Nullable,
  PhoneNumber,
  Sku,
  ListFilter,
  WarehouseCodeSchema,
} from '../formats.ts';
import { CollectionDocument, OneOfByType, ProvisionalId, RequestId, Resource, SingleDocument, ToMany, ToOne } from '../jsonapi.ts';
import { IdParams, IncludeQuery, PageQuery, defineOperation } from '../operation.ts';

const extra = Type.String({ maxLength: limits.metadataExtraMax });
export const OrderMetadata = Type.Object(
  {
    extra1: Type.Optional(Nullable(extra)),
    extra2: Type.Optional(Nullable(extra)),
    extra3: Type.Optional(Nullable(extra)),
    extra4: Type.Optional(Nullable(extra)),
    extra5: Type.Optional(Nullable(extra)),
  },
  { additionalProperties: false, description: 'Free fields extra1 to extra5.' },
);
export const OrderItemMetadata = Type.Object(
  {
    extra6: Type.Optional(Nullable(extra)),
    extra7: Type.Optional(Nullable(Type.String({ maxLength: limits.metadataExtraMax }))),
  },
  { additionalProperties: false, description: 'extra6 (greeting text for greeting-card products) and extra7.' },
);

const str = (max: number, description?: string) => Type.String({ maxLength: max, description });

export const ExternalOrderNumber = Type.String({
  minLength: 1,
  maxLength: limits.externalOrderNumberMax,
  description: 'Your order number; unique per client, at most 50 characters.',
  examples: ['SHOP-10001'],
});

const OrderWritable = {
  reference: Type.Optional(Nullable(str(100, 'Your reference; an empty string erases it on update.'))),
  orderedOn: Type.Optional(Nullable(Type.Union([DateOnly, DateTime], { description: 'When the consumer ordered; may be in the past.' }))),
  consumerReference: Type.Optional(Nullable(str(100))),
  promotionCode: Type.Optional(Nullable(str(100))),
  email: Type.Optional(Nullable(Email)),
  phoneNumber: Type.Optional(Nullable(PhoneNumber)),
  vatNumber: Type.Optional(Nullable(str(50))),
  fulfillFrom: Type.Optional(Nullable(WarehouseCodeSchema)),
  preferredShippingDate: Type.Optional(Nullable(DateOnly)),
  allowPartialDelivery: Type.Optional(Nullable(Type.Boolean({ default: false }))),
  metadata: Type.Optional(Nullable(OrderMetadata)),
};

export const OrderCreateAttributes = Type.Object(
  {
    externalOrderNumber: ExternalOrderNumber,
    locale: Locale,
    ...OrderWritable,
    onHold: Type.Optional(Type.Boolean({ default: false, description: 'An order created on hold stays on hold until released.' })),
    channelIdentifier: Type.Optional(
      Nullable(Type.String({ maxLength: limits.channelIdentifierMax, description: 'Owned: set on create, immutable.' })),
    ),
    currency: Type.Optional(Nullable(CurrencyCode)),
  },
  { additionalProperties: false },
);

export const OrderUpdateAttributes = Type.Object(
  {
    externalOrderNumber: ExternalOrderNumber,
    locale: Locale,
    ...OrderWritable,
    onHold: Type.Boolean(),
    channelIdentifier: Type.Optional(
      Nullable(Type.String({ maxLength: limits.channelIdentifierMax, description: 'Immutable: must equal the stored value when sent.' })),
    ),
    currency: Type.Optional(Nullable(CurrencyCode)),
  },
  { additionalProperties: false },
);

export const OrderAttributes = Type.Object({
  externalOrderNumber: Type.String(),
  locale: Type.String(),
  reference: Nullable(Type.String()),
  orderedOn: Nullable(Type.String({ format: 'date-time' })),
  consumerReference: Nullable(Type.String()),
  promotionCode: Nullable(Type.String()),
  email: Type.String(),
  phoneNumber: Nullable(Type.String()),
  vatNumber: Nullable(Type.String()),
  fulfillFrom: Nullable(Type.String()),
  preferredShippingDate: Nullable(Type.String({ format: 'date' })),
  allowPartialDelivery: Type.Boolean(),
  onHold: Type.Boolean(),
  metadata: Type.Object({
    extra1: Nullable(Type.String()),
    extra2: Nullable(Type.String()),
    extra3: Nullable(Type.String()),
    extra4: Nullable(Type.String()),
    extra5: Nullable(Type.String()),
  }),
  channelIdentifier: Nullable(Type.String()),
  currency: Type.String(),
  createdOn: Type.String({ format: 'date-time' }),
});

export const OrderRelationships = Type.Object({
  orderType: ToOne('orderType'),
  preferredShippingMethod: ToOne('shippingMethod'),
  deliveryAddress: ToOne('address'),
  billingAddress: ToOne('address'),
  pickUpPoint: ToOne('pickUpPoint'),
  orderItems: ToMany('orderItem'),
  orderAttachments: ToMany('orderAttachment'),
});

export const Order = Resource('order', OrderAttributes, OrderRelationships, 'An order of your shop, to be fulfilled by the warehouse.');

export const AddressFields = {
  firstName: Type.Optional(Nullable(str(100))),
  lastName: Type.Optional(Nullable(str(100))),
  prefix: Type.Optional(Nullable(str(20))),
  company: Type.Optional(Nullable(str(100))),
  street1: Type.String({ minLength: 1, maxLength: 100 }),
  street2: Type.Optional(Nullable(str(100))),
  houseNumber: Type.Optional(Nullable(str(20))),
  houseNumberExtension: Type.Optional(Nullable(str(20))),
  postcode: Type.Optional(Nullable(str(20, 'Required for NL, BE and DE.'))),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  region: Type.Optional(Nullable(str(100))),
  countryCode: CountryCode,
  translatedName: Type.Optional(Nullable(str(200))),
};
export const AddressWriteAttributes = Type.Object(AddressFields, { additionalProperties: false });
const nullableString = Nullable(Type.String());
export const AddressAttributes = Type.Object({
  firstName: nullableString,
  lastName: nullableString,
  prefix: nullableString,
  company: nullableString,
  street1: Type.String(),
  street2: nullableString,
  houseNumber: nullableString,
  houseNumberExtension: nullableString,
  postcode: nullableString,
  city: Type.String(),
  region: nullableString,
  countryCode: Type.String(),
  translatedName: nullableString,
});
export const Address = Resource('address', AddressAttributes, undefined, 'A delivery or billing address of an order.');

export const PickUpPointWriteAttributes = Type.Object(
  {
    identifier: Type.String({ minLength: 1, maxLength: 100, description: "The carrier's id of the pick-up point." }),
    registrationNumber: Type.Optional(Nullable(str(100))),
    name: Type.Optional(Nullable(str(100))),
    street1: Type.Optional(Nullable(str(100))),
    street2: Type.Optional(Nullable(str(100))),
    postcode: Type.Optional(Nullable(str(20))),
    houseNumber: Type.Optional(Nullable(str(20))),
    houseNumberExtension: Type.Optional(Nullable(str(20))),
    city: Type.Optional(Nullable(str(100))),
    region: Type.Optional(Nullable(str(100))),
    countryCode: CountryCode,
  },
  { additionalProperties: false },
);
export const PickUpPointAttributes = Type.Object({
  identifier: Type.String(),
  registrationNumber: nullableString,
  name: nullableString,
  street1: nullableString,
  street2: nullableString,
  postcode: nullableString,
  houseNumber: nullableString,
  houseNumberExtension: nullableString,
  city: nullableString,
  region: nullableString,
  countryCode: Type.String(),
});
export const PickUpPoint = Resource(
  'pickUpPoint',
  PickUpPointAttributes,
  undefined,
  'The pick-up point the parcel goes to; the delivery address is still required.',
);

export const OrderItemWriteAttributes = Type.Object(
  {
    sku: Sku,
    quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
    channelIdentifier: Type.Optional(Nullable(Type.String({ maxLength: limits.channelIdentifierMax }))),
    fulfillFrom: Type.Optional(Nullable(WarehouseCodeSchema)),
    price: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          maximum: 1e9,
          multipleOf: 0.01,
          description: 'Price per unit, 2 decimals. Items shipped outside the EU need a price above 0.',
        }),
      ),
    ),
    vat: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          exclusiveMaximum: 1,
          multipleOf: 0.001,
          default: 0,
          description: 'VAT as a fraction (0.21), at most 3 decimals.',
        }),
      ),
    ),
    name: Type.Optional(Nullable(str(250, 'Falls back to the product name.'))),
    metadata: Type.Optional(Nullable(OrderItemMetadata)),
  },
  { additionalProperties: false },
);
export const OrderItemAttributes = Type.Object({
  sku: Type.String(),
  quantity: Type.Integer({ minimum: 0, description: 'Quantity to deliver; lowered by cancellation.' }),
  channelIdentifier: nullableString,
  fulfillFrom: nullableString,
  price: Nullable(Type.Number()),
  vat: Type.Number(),
  name: Type.String(),
  metadata: Type.Object({ extra6: nullableString, extra7: nullableString }),
});
export const OrderItem = Resource(
  'orderItem',
  OrderItemAttributes,
  Type.Object({ order: ToOne('order'), product: ToOne('product') }),
  'One line of an order.',
);

export const OrderAttachmentAttributes = Type.Object({
  filename: Type.String(),
  contentType: Type.Literal('application/pdf'),
  printStrategy: Type.Union(printStrategies.map((s) => Type.Literal(s))),
  externalOrderNumber: Type.String(),
  createdOn: Type.String({ format: 'date-time' }),
});
export const OrderAttachment = Resource(
  'orderAttachment',
  OrderAttachmentAttributes,
  Type.Object({ order: ToOne('order') }),
  'A PDF document printed with the order; its contents are never returned.',
);

export const OrderAttachmentData = Type.Object({
  data: Type.Object({
    type: Type.Literal('orderAttachment'),
    attributes: Type.Object(
      {
        filename: Type.String({ minLength: 1, maxLength: 255 }),
        contentType: Type.Literal('application/pdf', { description: 'Only application/pdf.' }),
        printStrategy: Type.Optional(
          Type.Union(
            printStrategies.map((s) => Type.Literal(s)),
            { default: 'REQUIRED', description: 'REQUIRED (printing blocks the shipment) or BEST_EFFORT.' },
          ),
        ),
        externalOrderNumber: Type.Optional(ExternalOrderNumber),
      },
      { additionalProperties: false },
    ),
    relationships: Type.Optional(
      Type.Object({ order: Type.Object({ data: Type.Object({ type: Type.Literal('order'), id: RequestId }) }) }),
    ),
  }),
});

const provisionalRef = (type: string) =>
  Type.Object({ data: Type.Object({ type: Type.Literal(type), id: Type.Optional(ProvisionalId), lid: Type.Optional(ProvisionalId) }) });
const byIdRef = (type: string) => Type.Object({ data: Type.Object({ type: Type.Literal(type), id: RequestId }) });

const IncludedAddress = Type.Object({
  type: Type.Literal('address'),
  id: Type.Optional(ProvisionalId),
  lid: Type.Optional(ProvisionalId),
  attributes: AddressWriteAttributes,
});
const IncludedOrderItem = Type.Object({
  type: Type.Literal('orderItem'),
  id: Type.Optional(ProvisionalId),
  lid: Type.Optional(ProvisionalId),
  attributes: OrderItemWriteAttributes,
});
const IncludedPickUpPoint = Type.Object({
  type: Type.Literal('pickUpPoint'),
  id: Type.Optional(ProvisionalId),
  lid: Type.Optional(ProvisionalId),
  attributes: PickUpPointWriteAttributes,
});

export const OrderCreateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('order'),
    id: Type.Optional(ProvisionalId),
    attributes: OrderCreateAttributes,
    relationships: Type.Object({
      orderType: byIdRef('orderType'),
      deliveryAddress: provisionalRef('address'),
      billingAddress: Type.Optional(provisionalRef('address')),
      preferredShippingMethod: Type.Optional(byIdRef('shippingMethod')),
      pickUpPoint: Type.Optional(provisionalRef('pickUpPoint')),
      orderItems: Type.Optional(
        Type.Object({
          data: Type.Array(
            Type.Object({ type: Type.Literal('orderItem'), id: Type.Optional(ProvisionalId), lid: Type.Optional(ProvisionalId) }),
            { maxItems: limits.orderItemsMax },
          ),
        }),
      ),
    }),
  }),
  included: Type.Optional(
    Type.Array(OneOfByType([IncludedAddress, IncludedOrderItem, IncludedPickUpPoint]), {
      // The items, and a delivery address, a billing address and a pick-up point.
      maxItems: limits.orderItemsMax + 3,
      description: `The new addresses (with a provisional id), order items (at most ${limits.orderItemsMax}) and pick-up point.`,
    }),
  ),
});

export const OrderUpdateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('order'),
    id: RequestId,
    attributes: OrderUpdateAttributes,
    relationships: Type.Optional(Type.Object({}, { description: 'Relationships cannot change; any sent are ignored.' })),
  }),
});

export const orderIncludes = ['orderItems', 'deliveryAddress', 'billingAddress', 'pickUpPoint'];
const OrderIncluded = [OrderItem, Address, PickUpPoint];

export const CancelMeta = Type.Object({
  modified: Type.Boolean({ description: 'Whether anything was cancelled.' }),
  modifiedItems: Type.Array(Type.Integer(), { description: 'Ids of the order items whose quantity changed.' }),
});

const exampleOrderRequest = {
  data: {
    type: 'order',
    attributes: {
      externalOrderNumber: 'SHOP-10001',
      locale: 'nl-NL',
      email: 'jane@example.com',
      reference: 'web order',
      allowPartialDelivery: false,
    },
    relationships: {
      orderType: { data: { type: 'orderType', id: 1 } },
      deliveryAddress: { data: { type: 'address', id: 'delivery' } },
      billingAddress: { data: { type: 'address', id: 'billing' } },
    },
  },
  included: [
    {
      type: 'address',
      id: 'delivery',
      attributes: {
        firstName: 'Jane',
        lastName: 'Jansen',
        street1: 'Kerkstraat',
        houseNumber: '12',
        postcode: '4701AB',
        city: 'Roosendaal',
        countryCode: 'NL',
      },
    },
    {
      type: 'address',
      id: 'billing',
      attributes: {
        firstName: 'Jane',
        lastName: 'Jansen',
        company: 'Jansen BV',
        street1: 'Markt',
        houseNumber: '1',
        postcode: '4701AA',
        city: 'Roosendaal',
        countryCode: 'NL',
      },
    },
    { type: 'orderItem', attributes: { sku: 'SKU-TSHIRT-L', quantity: 2, price: 19.95, vat: 0.21 } },
  ],
};

const tags = ['Orders'];
const orderErrors = ['400', '401', '404', '406', '415'] as const;

export const orderOperations = [
  defineOperation({
    operationId: 'listOrders',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/orders',
    tags,
    auth: true,
    success: 200,
    summary: 'List orders',
    description: 'Your orders, ordered by id ascending, cursor-paged.',
    query: Type.Object({
      ...PageQuery,
      ...IncludeQuery(orderIncludes),
      'filter[orderedOn][lt]': Type.Optional(DateOnly),
      'filter[orderedOn][gt]': Type.Optional(DateOnly),
      'filter[externalOrderNumber][in]': Type.Optional(ListFilter('External order numbers.', ['SHOP-10001,SHOP-10002'])),
      'filter[reference][in]': Type.Optional(ListFilter('References.')),
    }),
    responses: { 200: { description: 'A page of orders.', schema: CollectionDocument(Order, OrderIncluded) } },
    errors: [...orderErrors],
  }),
  defineOperation({
    operationId: 'createOrder',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/orders',
    tags,
    auth: true,
    success: 201,
    summary: 'Create an order',
    description:
      'Send the order in `data` and its new addresses, order items and pick-up point in `included`. Addresses carry a provisional id that `deliveryAddress` and `billingAddress` point to; order items and the pick-up point need none. `billingAddress` defaults to the delivery address; `preferredShippingMethod` defaults to the main shipping method. Several problems come back together in one errors list.',
    query: Type.Object({ ...IncludeQuery(orderIncludes) }),
    body: OrderCreateDocument,
    requestExample: exampleOrderRequest,
    responses: {
      201: { description: 'The created order with its related resources included.', schema: SingleDocument(Order, OrderIncluded) },
      409: { description: '409-1: the externalOrderNumber already exists; links.related points to the existing order.' },
    },
    errors: [...orderErrors, '404-1', '404-2', '404-3', '409-1'],
  }),
  defineOperation({
    operationId: 'getOrder',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/orders/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an order',
    description: 'One order; `include` adds its related resources.',
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(orderIncludes) }),
    responses: { 200: { description: 'The order.', schema: SingleDocument(Order, OrderIncluded) } },
    errors: [...orderErrors, '404-5'],
  }),
  defineOperation({
    operationId: 'updateOrder',
    documents: ['v3'],
    method: 'PUT',
    path: '/v3/orders/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Update an order',
    description:
      "Send the whole order in its desired state. currency and channelIdentifier are immutable; items, addresses, pick-up point, shipping method and order type cannot change. An empty string erases reference, consumerReference and promotionCode; a null email falls back to a no-reply address; omitted metadata erases it; preferredShippingDate must be today or later; a null allowPartialDelivery takes the order type's default. A fulfilled order answers 422 and nothing changes.",
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(orderIncludes) }),
    body: OrderUpdateDocument,
    requestExample: {
      data: {
        type: 'order',
        id: 1,
        attributes: {
          externalOrderNumber: 'SHOP-10001',
          locale: 'nl-NL',
          onHold: false,
          reference: 'updated',
          preferredShippingDate: '2030-01-01',
        },
      },
    },
    responses: { 200: { description: 'The full order with its related resources.', schema: SingleDocument(Order, OrderIncluded) } },
    errors: [...orderErrors, '404-5', '409', '422'],
  }),
  defineOperation({
    operationId: 'cancelOrder',
    documents: ['v3'],
    method: 'DELETE',
    path: '/v3/orders/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Cancel an order',
    description:
      'Cancels every item as far as shipments do not cover it: completely (quantity 0), partly, or not at all. `meta.modified` says whether anything changed and `meta.modifiedItems` lists the items that did.',
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(orderIncludes) }),
    responses: { 200: { description: 'The order after cancellation.', schema: SingleDocument(Order, OrderIncluded, CancelMeta) } },
    errors: [...orderErrors, '404-5'],
  }),
  defineOperation({
    operationId: 'getOrderItem',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/orderItems/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an order item',
    description: 'One order item.',
    params: IdParams,
    responses: { 200: { description: 'The order item.', schema: SingleDocument(OrderItem) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'cancelOrderItem',
    documents: ['v3'],
    method: 'DELETE',
    path: '/v3/orderItems/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Cancel an order item',
    description: 'Cancels the item as far as shipments do not cover it. `meta.modified` says whether its quantity changed.',
    params: IdParams,
    responses: {
      200: {
        description: 'The order item after cancellation.',
        schema: SingleDocument(OrderItem, [], Type.Object({ modified: Type.Boolean() })),
      },
    },
    errors: ['401', '404', '406'],
  }),
  // Addresses, pick-up points and attachments are parts of an order: read one by the id its self link names, like order items.
  defineOperation({
    operationId: 'getAddress',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/addresses/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an address',
    description: 'One delivery or billing address of an order.',
    params: IdParams,
    responses: { 200: { description: 'The address.', schema: SingleDocument(Address) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'getPickUpPoint',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/pickUpPoints/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a pick-up point',
    description: 'The pick-up point of an order.',
    params: IdParams,
    responses: { 200: { description: 'The pick-up point.', schema: SingleDocument(PickUpPoint) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'createOrderAttachment',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/orderAttachments',
    tags,
    auth: true,
    success: 201,
    summary: 'Attach a PDF to an order',
    description: `Multipart form data with two parts: \`data\`, the attachment as JSON text — the resource itself (\`type\`, \`attributes\`, \`relationships\`) or the whole JSON:API document around it (\`{"data": {...}}\`) — and \`file\`, the PDF. The PDF must have exactly one page, A4 or A5, and at most ${limits.attachmentMaxBytes / 1024 / 1024} MiB; it is checked by reading it, within bounds: a PDF that expands too much when decoded (a compression bomb) or takes too long to read is refused with 400. While too many files are being checked at once the answer is 503: send it again a few seconds later. The PDF counts towards your storage quota (${limits.storageQuotaMibDefault} MiB by default, for your attachments and product images together): a file that does not fit answers 413, naming the quota and what your files take. ${uploadPaceText} The order is identified by \`relationships.order\` or by \`externalOrderNumber\`. Printing must be arranged beforehand with your account manager. A fulfilled order answers 422-1.`,
    body: Type.Object({
      // The data part is read whole by the multipart parser; its bound is the multipart field size, one request body.
      data: Type.String({
        maxLength: limits.requestBodyMaxBytes,
        description: 'The attachment document as JSON text.',
        examples: [
          JSON.stringify({
            data: {
              type: 'orderAttachment',
              attributes: {
                filename: 'invoice.pdf',
                contentType: 'application/pdf',
                printStrategy: 'REQUIRED',
                externalOrderNumber: 'SHOP-10001',
              },
            },
          }),
        ],
      }),
      file: Type.String({ format: 'binary', maxLength: limits.attachmentMaxBytes, description: 'The PDF file.' }),
    }),
    bodyContentTypes: ['multipart/form-data'],
    responses: { 201: { description: 'The attachment, without its contents.', schema: SingleDocument(OrderAttachment) } },
    errors: ['400', '401', '404-5', '404-6', '406', '413', '415', '422-1', '429', '503'],
  }),
  defineOperation({
    operationId: 'getOrderAttachment',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/orderAttachments/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an order attachment',
    description: 'What is known of an attached PDF; its contents are never returned.',
    params: IdParams,
    responses: { 200: { description: 'The attachment, without its contents.', schema: SingleDocument(OrderAttachment) } },
    errors: ['401', '404', '406'],
  }),
];
