// Builders for request documents used across tests.
import type { TestClient, TestSandbox } from './sandbox.ts';

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

export const dutchAddress = {
  firstName: 'Jane',
  lastName: 'Jansen',
  street1: 'Kerkstraat',
  houseNumber: '12',
  postcode: '4701AB',
  city: 'Roosendaal',
  countryCode: 'NL',
};

/** A POST /v3/orders document for the client (its own order type ids). */
export function orderDocument(client: Pick<TestClient, 'orderTypeIds'>, opts: OrderDocOptions = {}) {
  const included: unknown[] = [{ type: 'address', id: 'delivery', attributes: { ...dutchAddress, ...opts.delivery } }];
  const relationships: Record<string, unknown> = {
    orderType: { data: { type: 'orderType', id: opts.orderTypeId ?? client.orderTypeIds[0] } },
    deliveryAddress: { data: { type: 'address', id: 'delivery' } },
  };
  if (opts.billing) {
    included.push({ type: 'address', id: 'billing', attributes: opts.billing });
    relationships.billingAddress = { data: { type: 'address', id: 'billing' } };
  }
  if (opts.shippingMethodId !== undefined)
    relationships.preferredShippingMethod = { data: { type: 'shippingMethod', id: opts.shippingMethodId } };
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

/** A product of the client with these attributes (its name is its sku unless given), a bundle with its parts; its id. */
export async function createProduct(
  sb: TestSandbox,
  token: string,
  sku: string,
  attributes: Record<string, unknown> = {},
  parts?: { id: number; quantity: number }[],
): Promise<number> {
  const relationships = parts && { parts: { data: parts.map((p) => ({ type: 'product', id: p.id, meta: { quantity: p.quantity } })) } };
  const answer = await sb.call('POST', '/v3/products', {
    token,
    body: { data: { type: 'product', attributes: { sku, name: sku, ...attributes }, ...(relationships ? { relationships } : {}) } },
  });
  if (answer.status !== 201) throw new Error(`product ${sku}: ${answer.raw}`);
  return answer.body.data.id as number;
}

export async function createProducts(sb: TestSandbox, token: string, skus: string[]) {
  const ids: number[] = [];
  for (const sku of skus) {
    const answer = await sb.call('POST', '/v3/products', {
      token,
      body: { data: { type: 'product', attributes: { sku, name: `Product ${sku}` } } },
    });
    if (answer.status !== 201) throw new Error(`product ${sku}: ${answer.raw}`);
    ids.push(answer.body.data.id);
  }
  return ids;
}
