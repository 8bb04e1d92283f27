// Building blocks of the legacy v2 contract: the OK answer, the 400 answers, and the v2 warehouse ids.
import { Type, type TSchema } from '@sinclair/typebox';
import { warehouseCodes, type WarehouseCode } from '../enums.ts';
import { V2NokBody, v2Messages } from '../errors.ts';
import { Envelope } from '../settings.ts';
import type { ResponseSpec } from '../operation.ts';

/** The 400 body of a request that could not be read at all (v2 spec section 8). */
export const V2BadRequestBody = Type.Object({
  error: Type.Literal('Bad Request'),
  error_description: Type.Literal('The message is a malformed'),
});
export const v2BadRequest = { error: 'Bad Request', error_description: 'The message is a malformed' } as const;

/** A v2 OK answer: the envelope around the result, with an example. */
export function okResponse(description: string, result: TSchema, example: { message: string; result: unknown }): ResponseSpec {
  return { description, schema: Envelope(result), contentType: 'application/json', example: { messageCode: 'OK', ...example } };
}

/**
 * The 200 answer of a v2 search or get by key: OK with the result, or NOK with result null when nothing matches
 * (a missing key and another client's answer alike). Production answers a miss this way, and v2 clients rely on it:
 * they read messageCode to tell a new record from an existing one, and their HTTP libraries throw on any 4xx.
 */
export function foundOrNotResponse(
  description: string,
  result: TSchema,
  example: { message: string; result: unknown },
  notFoundMessage: string,
  when = 'When nothing matches',
): ResponseSpec {
  const miss = { messageCode: 'NOK', message: notFoundMessage, result: null };
  return {
    description: `${description} ${when} (also for another client's key) the answer is still HTTP 200, with messageCode NOK: \`${JSON.stringify(miss)}\`.`,
    schema: Type.Union([Envelope(result), V2NokBody]),
    contentType: 'application/json',
    example: { messageCode: 'OK', ...example },
  };
}

/** The 400 answer of every v2 call with a body or a query: a NOK envelope, or Bad Request for a body that cannot be read. */
export function badRequestResponse(
  example: unknown = { messageCode: 'NOK', message: v2Messages.malformed, result: ['orderItems/0/quantity must be integer.'] },
): ResponseSpec {
  return {
    description: `NOK: "${v2Messages.emptyValue}" for an empty body; "${v2Messages.malformed}" with the problems as result; or the reason the request could not be processed. A body that cannot be read at all answers \`${JSON.stringify(v2BadRequest)}\`.`,
    schema: Type.Union([V2NokBody, V2BadRequestBody]),
    contentType: 'application/json',
    example,
  };
}

/**
 * v2 warehouse ids: the position of the warehouse code in the spec's list (NR 1, NN 2, GN 3, BW 4, DD 5, FP 6),
 * since v2 names warehouses by integer where v3 uses the code.
 */
export const v2WarehouseIds: Record<number, WarehouseCode> = Object.fromEntries(warehouseCodes.map((code, i) => [i + 1, code]));
export const warehouseIdDescription = `Warehouse id: ${warehouseCodes.map((c, i) => `${i + 1} ${c}`).join(', ')}.`;

export const nullableString = Type.Union([Type.String(), Type.Null()]);
export const nullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** Purchase-order calls report field problems with their own message (v2 spec section 8). */
export const purchaseOrderOperationIds: readonly string[] = ['addPurchaseOrder', 'editPurchaseOrder', 'deletePurchaseOrder'];
