// v2 test helpers: the same body sent the three ways real v2 clients send it, and a valid v2 order.
import type { Answer, TestSandbox } from './sandbox.ts';
import { uniqueNumber } from './fixtures.ts';

export type BodyStyle = 'json camelCase' | 'json PascalCase' | 'form';
export const bodyStyles: BodyStyle[] = ['json camelCase', 'json PascalCase', 'form'];

const pascal = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

function pascalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pascalKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [pascal(k), pascalKeys(v)]));
  return value;
}

/** Form fields the way ASP.NET-era clients post them: PascalCase keys, OrderItems[0][Sku], every value as text. */
export function formFields(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (node: unknown, key: string) => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) {
      for (const [i, v] of node.entries()) walk(v, `${key}[${i}]`);
    } else if (typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) walk(v, key ? `${key}[${pascal(k)}]` : pascal(k));
    } else {
      out[key] = String(node);
    }
  };
  walk(value, '');
  return out;
}

export function sendV2(
  sb: TestSandbox,
  method: string,
  url: string,
  body: Record<string, unknown>,
  token: string,
  style: BodyStyle = 'json camelCase',
): Promise<Answer> {
  if (style === 'form') return sb.call(method, url, { token, form: formFields(body) });
  return sb.call(method, url, { token, body: style === 'json PascalCase' ? pascalKeys(body) : body });
}

export function v2Order(overrides: Record<string, unknown> = {}) {
  return {
    externalOrderNumber: uniqueNumber('V2'),
    paymentMethodId: 1,
    languageId: 1,
    orderTypeId: overrides.orderTypeId ?? 0,
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
    orderItems: [{ sku: 'V2-MUG', quantity: 2, price: 7.5, vat: 21 }],
    ...overrides,
  };
}
