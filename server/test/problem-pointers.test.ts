// Where JSON:API error pointers lead in each API's documents: api/shared's pointer rules against v3's order document (a
// test of both, so it lives outside both).
import { describe, expect, it } from 'vitest';
import { DomainError, type Problem } from '../src/platform/errors.ts';
import { newOrderFromDocument } from '../src/api/v3/order-documents.ts';
import {
  attributesPointer,
  bodyPointer,
  errorSource,
  itemsInIncluded,
  locatedError,
  locating,
  multipartPointer,
  withRelationships,
} from '../src/api/shared/problem-pointers.ts';

const problem = (extra: Partial<Problem>): Problem => ({ code: '400', detail: 'wrong', ...extra });

describe('pointers for paths into the input', () => {
  it('puts a path into the attributes by default, escaping ~ and / in keys', () => {
    expect(attributesPointer(['hsCodes', 0, 'hsCode'])).toBe('/data/attributes/hsCodes/0/hsCode');
    expect(attributesPointer(['metadata', 'a/b~c'])).toBe('/data/attributes/metadata/a~1b~0c');
    expect(errorSource(problem({ path: ['sku'] }))).toEqual({ source: { pointer: '/data/attributes/sku' } });
  });

  it('keeps a pointer an API set, then a parameter, else no source', () => {
    expect(errorSource(problem({ path: ['sku'], pointer: '/included/0' }))).toEqual({ source: { pointer: '/included/0' } });
    expect(errorSource(problem({ parameter: 'page[size]' }))).toEqual({ source: { parameter: 'page[size]' } });
    expect(errorSource(problem({}))).toEqual({});
  });

  it('locates per document shape: plain bodies, included items, relationships, multipart parts', () => {
    expect(bodyPointer(['items', 0, 'sku'])).toBe('/items/0/sku');
    expect(bodyPointer([])).toBe('/');
    expect(itemsInIncluded(['items'])).toBe('/included');
    expect(itemsInIncluded(['items', 2, 'sku'])).toBe('/included/2/attributes/sku');
    expect(itemsInIncluded(['reference'])).toBe('/data/attributes/reference');
    const parts = withRelationships('parts');
    expect(parts(['parts'])).toBe('/data/relationships/parts');
    expect(parts(['parts', 2])).toBe('/data/relationships/parts/data/2');
    expect(parts(['parts', 1, 'id'])).toBe('/data/relationships/parts/data/1/id');
    expect(parts(['sku'])).toBe('/data/attributes/sku');
    expect(multipartPointer(['file'])).toBe('/file');
    expect(multipartPointer([])).toBe('/data');
    expect(multipartPointer(['externalOrderNumber'])).toBe('/data/attributes/externalOrderNumber');
  });

  it('rewrites a refusal: pointers from paths, a related link to the existing entity, the same status and result', async () => {
    const refusal = new DomainError(
      [problem({ code: '409-1', path: ['externalOrderNumber'], existing: { type: 'order', id: 7 } }), problem({ pointer: '/data/id' })],
      { result: [1] },
    );
    const located = locatedError(refusal, bodyPointer, 'https://sandbox.test');
    expect(located.items).toEqual([
      {
        code: '409-1',
        detail: 'wrong',
        path: ['externalOrderNumber'],
        existing: { type: 'order', id: 7 },
        pointer: '/externalOrderNumber',
        related: 'https://sandbox.test/v3/orders/7',
      },
      { code: '400', detail: 'wrong', pointer: '/data/id' },
    ]);
    expect([located.status, located.result]).toEqual([refusal.status, [1]]);
    await expect(locating(bodyPointer, Promise.reject(new Error('not a refusal')))).rejects.toThrow('not a refusal');
  });
});

describe('the order create document', () => {
  const document = {
    data: {
      type: 'order' as const,
      attributes: { externalOrderNumber: 'SHOP-1', locale: 'nl-NL' },
      relationships: {
        orderType: { data: { type: 'orderType' as const, id: 1 } },
        deliveryAddress: { data: { type: 'address' as const, lid: 'home' } },
        billingAddress: { data: { type: 'address' as const, lid: 'home' } },
      },
    },
    included: [
      { type: 'orderItem' as const, attributes: { sku: 'MUG', quantity: 1 } },
      { type: 'address' as const, lid: 'home', attributes: { street1: 'Kerkstraat 1', city: 'Utrecht', countryCode: 'NL' } },
      { type: 'orderItem' as const, attributes: { sku: 'SHIRT', quantity: 2 } },
    ],
  };

  it('reads a plain order: items in order, the delivery address billed when billing names the same address', () => {
    const { order, problems } = newOrderFromDocument(document as never);
    expect(problems.items).toEqual([]);
    expect(order).toMatchObject({
      externalOrderNumber: 'SHOP-1',
      orderTypeId: 1,
      deliveryAddress: { street1: 'Kerkstraat 1' },
      billingAddress: 'delivery',
      items: [{ sku: 'MUG' }, { sku: 'SHIRT' }],
    });
  });

  it('points a path into the order at the place in the document it was read from', () => {
    const { locate } = newOrderFromDocument(document as never);
    expect(locate(['items', 1, 'sku'])).toBe('/included/2/attributes/sku');
    expect(locate(['deliveryAddress', 'street1'])).toBe('/included/1/attributes/street1');
    expect(locate(['orderTypeId'])).toBe('/data/relationships/orderType');
    expect(locate(['preferredShippingMethodId'])).toBe('/data/relationships/preferredShippingMethod');
    expect(locate(['billingAddress'])).toBe('/data/relationships/billingAddress');
    expect(locate(['email'])).toBe('/data/attributes/email');
  });

  it('reports the problems of the document itself with their pointers', () => {
    const broken = {
      ...document,
      included: [...document.included, { type: 'address' as const, attributes: document.included[1].attributes }],
    };
    expect(newOrderFromDocument(broken as never).problems.items).toEqual([
      { code: '400', detail: 'An included address needs a provisional id that a relationship points to.', pointer: '/included/3' },
    ]);
  });
});
