// The order's field table: what an order is placed with and what an update writes, for each kind of field.
import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { defaults } from '@shopapi/contract';
import { schema } from '../../platform/db/index.ts';
import { changedFields, placedColumnKeys, placedFields } from './fields.ts';
import type { OrderRow } from './repository.ts';

const stored = {
  externalOrderNumber: 'SHOP-1',
  locale: 'nl-NL',
  reference: 'ref',
  orderedOn: new Date('2026-01-02T03:04:05.000Z'),
  consumerReference: 'consumer',
  promotionCode: 'PROMO',
  email: 'ada@example.com',
  phoneNumber: '+31 20 123 4567',
  vatNumber: 'NL123',
  fulfillFrom: 'NL01',
  preferredShippingDate: '2026-02-01',
  allowPartialDelivery: true,
  onHold: true,
  metadata: { extra1: 'one' },
  channelIdentifier: 'shop',
  currency: 'USD',
} as unknown as OrderRow;

describe('the order field table', () => {
  it('places an order with the defaults for what was left out, and null for an empty erasable text', () => {
    expect(placedFields({ externalOrderNumber: 'SHOP-2', locale: 'en-GB', reference: '', orderedOn: '2026-05-01' })).toEqual({
      externalOrderNumber: 'SHOP-2',
      locale: 'en-GB',
      reference: null,
      orderedOn: '2026-05-01T00:00:00.000Z',
      consumerReference: null,
      promotionCode: null,
      email: defaults.noReplyEmail,
      phoneNumber: null,
      vatNumber: null,
      fulfillFrom: null,
      preferredShippingDate: null,
      allowPartialDelivery: defaults.allowPartialDelivery,
      onHold: defaults.onHold,
      metadata: {},
      channelIdentifier: null,
      currency: defaults.currency,
    });
  });

  it('keeps on update what was left out, erases a text with an empty one (null keeps it) and an optional field with null, and never writes the fields set on create only', () => {
    const changed = changedFields(
      { externalOrderNumber: 'SHOP-1b', locale: 'de-DE', reference: '', consumerReference: null, phoneNumber: null, onHold: false },
      stored,
    );
    expect(changed).toEqual({
      externalOrderNumber: 'SHOP-1b',
      locale: 'de-DE',
      reference: null,
      orderedOn: stored.orderedOn,
      consumerReference: 'consumer',
      promotionCode: 'PROMO',
      // Not given: the default, as on create; metadata left out is erased.
      email: defaults.noReplyEmail,
      phoneNumber: null,
      vatNumber: 'NL123',
      fulfillFrom: 'NL01',
      preferredShippingDate: '2026-02-01',
      onHold: false,
      metadata: {},
    });
    expect(Object.keys(changed)).not.toContain('currency');
    expect(changedFields({ externalOrderNumber: 'SHOP-1', locale: 'nl-NL', orderedOn: '2026-03-04T05:06:07Z' }, stored).orderedOn).toEqual(
      new Date('2026-03-04T05:06:07Z'),
    );
  });

  it('names columns of the orders table only', () => {
    const columns = Object.keys(getTableColumns(schema.orders));
    expect(placedColumnKeys.filter((key) => !columns.includes(key))).toEqual([]);
    expect(placedColumnKeys.length).toBeGreaterThan(10);
  });
});
