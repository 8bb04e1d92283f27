// Builders for request documents used across tests.
import type { TestSandbox } from './sandbox.ts';

export interface OrderDocOptions {
  externalOrderNumber?: string;
  items?: { sku: string; quantity: number; price?: number; [key: string]: unknown }[];
  attributes?: Record<string, unknown>;
  delivery?: Record<string, unknown>;
  billing?: Record<string, unknown> | null;
  pickUpPoint?: Record<string, unknown>;
  orderTypeId?: number | string;
  shippingMethodId?: number | string;
}

let counter = 0;
export const uniqueNumber = (prefix = 'ORD') => `${prefix}-${Date.now().toString(36)}-${++counter}`;

export const dutchAddress = { firstName: 'Jane', lastName: 'Jansen', street1: 'Kerkstraat', houseNumber: '12', postcode: '4701AB', city: 'Roosendaal', countryCode: 'NL' };

export function orderDocument(opts: OrderDocOptions = {}) {
  const included: unknown[] = [{ type: 'address', id: 'delivery', attributes: { ...dutchAddress, ...opts.delivery } }];
  const relationships: Record<string, unknown> = {
    orderType: { data: { type: 'orderType', id: opts.orderTypeId ?? 1 } },
    deliveryAddress: { data: { type: 'address', id: 'delivery' } },
  };
  if (opts.billing) {
    included.push({ type: 'address', id: 'billing', attributes: opts.billing });
    relationships.billingAddress = { data: { type: 'address', id: 'billing' } };
  }
  if (opts.shippingMethodId !== undefined) relationships.preferredShippingMethod = { data: { type: 'shippingMethod', id: opts.shippingMethodId } };
  for (const item of opts.items ?? []) included.push({ type: 'orderItem', attributes: item });
  if (opts.pickUpPoint) included.push({ type: 'pickUpPoint', attributes: opts.pickUpPoint });
  return {
    data: {
      type: 'order',
      attributes: { externalOrderNumber: opts.externalOrderNumber ?? uniqueNumber(), locale: 'nl-NL', ...opts.attributes },
      relationships,
    },
    included,
  };
}

export async function createProducts(sb: TestSandbox, token: string, skus: string[]) {
  const ids: number[] = [];
  for (const sku of skus) {
    const answer = await sb.call('POST', '/v3/products', { token, body: { data: { type: 'product', attributes: { sku, name: `Product ${sku}` } } } });
    if (answer.status !== 201) throw new Error(`product ${sku}: ${answer.raw}`);
    ids.push(answer.body.data.id);
  }
  return ids;
}

/** The client's order type and main shipping method ids, read the way an integration would. */
export async function settingsIds(sb: TestSandbox, token: string) {
  const { body } = await sb.call('GET', '/settings/get', { token });
  return {
    orderTypeIds: body.result.orderTypes.map((t: { id: number }) => t.id) as number[],
    mainShippingMethodIds: body.result.mainShippingMethods.map((m: { id: number }) => m.id) as number[],
  };
}
