// The error catalogue (spec section 8 of the v3 documents): one entry per code, with its HTTP status and title.
import { Type } from '@sinclair/typebox';

export const errorCatalogue = {
  '400': { status: 400, title: 'Bad Request' },
  '400-8': { status: 400, title: 'Image rejected' },
  '401': { status: 401, title: 'Unauthorized' },
  '404': { status: 404, title: 'Not Found' },
  '404-1': { status: 404, title: 'SKU not found' },
  '404-2': { status: 404, title: 'Order type not found' },
  '404-3': { status: 404, title: 'Preferred shipping method not found' },
  '404-5': { status: 404, title: 'Order not found' },
  '404-6': { status: 404, title: 'Order not found by external order number' },
  '405': { status: 405, title: 'Method Not Allowed' },
  '406': { status: 406, title: 'Not Acceptable' },
  '409': { status: 409, title: 'Conflict' },
  '409-1': { status: 409, title: 'External order number already exists' },
  '413': { status: 413, title: 'Payload Too Large' },
  '415': { status: 415, title: 'Unsupported Media Type' },
  '422': { status: 422, title: 'Order already fulfilled' },
  '422-1': { status: 422, title: 'Order already fulfilled' },
  '429': { status: 429, title: 'Too Many Requests' },
  '500': { status: 500, title: 'Internal Server Error' },
  '503': { status: 503, title: 'Service Unavailable' },
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export const JsonApiError = Type.Object({
  code: Type.String({ description: 'Catalogue code, e.g. 404-1.', examples: ['409-1'] }),
  title: Type.String(),
  detail: Type.String(),
  status: Type.Optional(Type.String({ description: 'HTTP status as a string.' })),
  source: Type.Optional(
    Type.Object({
      pointer: Type.Optional(Type.String({ description: 'JSON pointer into the request document.' })),
      parameter: Type.Optional(Type.String({ description: 'The query or path parameter at fault.' })),
    }),
  ),
  links: Type.Optional(Type.Object({ related: Type.String({ description: 'A related resource, e.g. the existing order on 409-1.' }) })),
});

export const JsonApiErrorDocument = Type.Object({
  errors: Type.Array(JsonApiError, { minItems: 1 }),
  meta: Type.Optional(
    Type.Object({
      requestId: Type.String({
        description:
          'The Request-Id header of this answer: look the call up with GET /sandbox/requests/{id}, or quote it when you ask for help.',
      }),
    }),
  ),
});

/** v2 envelope (legacy): every answer carries messageCode, message, result. */
export const v2Messages = {
  status: 'Status is OK.',
  settings: 'Settings are ok.',
  orderAdded: 'Order has been successfully added.',
  orderFound: 'Order found.',
  /** Misses of the v2 searches: a 200 NOK, since v2 clients tell a new record from an existing one by messageCode. */
  orderNotFound: 'Order not found.',
  productNotFound: 'Product not found.',
  shipmentNotFound: 'Shipment not found.',
  requestProcessed: 'Request processed successfully.',
  rmaCreated: 'RMA created.',
  returnLabelFound: 'Return label found.',
  trackTraceFound: 'Found track trace status data',
  productAdded: 'Product has been successfully added',
  productFound: 'Product found.',
  purchaseOrderAdded: 'PurchaseOrder added successfully.',
  purchaseOrderProcessed: 'PurchaseOrder(Items) processed successfully.',
  purchaseOrderDeleted: 'PurchaseOrder(Items) deleted successfully.',
  purchaseOrderValidation: 'Input did not pass validation. Check result for errors.',
  purchaseOrderFailed: 'PurchaseOrder(Items) processed/deleted unsuccessfully.',
  purchaseOrderPartial: 'PurchaseOrder(Items) processed/deleted unsuccessfully or partially.',
  idsNotFound: 'Some Ids were not found',
  malformed: 'Unable to process request due to malformed contents',
  emptyValue: 'We were unable to parse your request, resulting in an empty value. Please check your input.',
  unauthorized: 'Authorization has been denied for this request.',
  shipmentsFound: (count: number) => `Found ${count} shipments that match your criteria.`,
} as const;

export const tokenErrors = {
  invalidGrant: { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' },
  unsupportedGrantType: { error: 'unsupported_grant_type', error_description: 'The grant type must be password.' },
  /** Anything else wrong with the request: a missing field, a body that is not form-encoded. */
  invalidRequest: (detail: string) => ({ error: 'invalid_request', error_description: detail }),
} as const;

/** v2 error bodies (v2 spec section 8). */
export const V2UnauthorizedBody = Type.Object({ message: Type.Literal('Authorization has been denied for this request.') });
export const V2NotFoundBody = Type.Object({ error: Type.Literal('404 Not Found'), error_description: Type.String() });
export const V2NokBody = Type.Object({ messageCode: Type.Literal('NOK'), message: Type.String(), result: Type.Unknown() });
