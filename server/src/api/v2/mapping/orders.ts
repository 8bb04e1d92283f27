// v2 order fields onto the v3 order model: flat addresses become address rows, ids become codes, VAT rates fractions.
import type { Static } from '@sinclair/typebox';
import { v2WarehouseIds, type V2OrderAdd, type WarehouseCode } from '@shopapi/contract';
import type { Db } from '../../../platform/db/index.ts';
import { checkAddress } from '../../../modules/orders/addresses.ts';
import { findLanguage, findWarehouseShippingMethod } from '../../../modules/reference/service.ts';
import type { AddressInput, NewOrder } from '../../../modules/orders/service.ts';
import type { InputWarnings } from '../../../platform/request-warnings.ts';
import { noWarnings, type WarningSink } from '../../../platform/request-warnings.ts';
import { ProblemCollector, type FieldPath } from '../../../platform/errors.ts';

type Body = Static<typeof V2OrderAdd>;
type Item = Body['orderItems'][number];

const blank = (value: string | number | null | undefined) => value === undefined || value === null || String(value).trim() === '';
const textOf = (value: string | number | null | undefined) => (blank(value) ? null : String(value).trim());

function addressOf(
  // biome-ignore lint/suspicious/noExplicitAny: address fields are read by composed name (deliveryAddressStreet, billingAddressCity, ...).
  body: Record<string, any>,
  prefix: 'deliveryAddress' | 'billingAddress',
  fallbackCountry: string,
  warnings: WarningSink,
): AddressInput {
  const field = (name: string) => textOf(body[`${prefix}${name}`]);
  if (!field('CountryIso')) warnings.add('default', `not given: the delivery country ${fallbackCountry}`, `/${prefix}CountryIso`);
  return {
    firstName: field('FirstName'),
    lastName: field('LastName'),
    prefix: field('Insertion'),
    company: field('ExtraName'),
    street1: field('Street') ?? '',
    street2: field('ExtraAddress'),
    houseNumber: field('HouseNumber'),
    houseNumberExtension: field('HouseNumberAddition'),
    postcode: field('PostalCode'),
    city: field('CityName') ?? '',
    region: field('Region'),
    countryCode: (field('CountryIso') ?? fallbackCountry).toUpperCase(),
  };
}

const rounds = (value: number) => Math.abs(value - Math.round(value)) > 1e-6;

/**
 * v2 clients send the VAT rate either way: 21 (a percentage) or 0.21 (a fraction). No real rate lies between 0 and 1 %,
 * so a value below 1 is a fraction and from 1 up a percentage; v3 stores the fraction with 3 decimals.
 */
function vatFraction(vat: number, source: string, warnings: WarningSink): number {
  const fraction = vat < 1 ? Math.round(vat * 1000) / 1000 : Math.round(vat * 10) / 1000;
  if (vat > 0 && vat < 1)
    warnings.add(
      'coerced',
      `${vat} is below 1: read as the fraction ${fraction} (${Math.round(fraction * 1000) / 10} %), not as ${vat} %`,
      source,
    );
  else if (rounds(vat * 10)) warnings.add('coerced', `${vat} % rounded to the fraction ${fraction} (3 decimals)`, source);
  return fraction;
}

/** Where a v2 body carries the fields of the domain order that have other names (no single field stands for the billing address). */
const v2Fields: Record<string, string | undefined> = {
  allowPartialDelivery: 'partialDelivery',
  preferredShippingMethodId: 'shippingMethodId',
  billingAddress: undefined,
};

/** A JSON pointer into the v2 body for a path into the domain order, for the Sandbox-Warning headers. */
function v2SourceOf(path: FieldPath): string | undefined {
  const [head, index, field] = path;
  if (head === 'items') return `/orderItems/${index}/${field}`;
  if ((head === 'deliveryAddress' || head === 'billingAddress') && index === 'street1') return `/${head}Street`;
  if (typeof head === 'string' && head in v2Fields) return v2Fields[head] === undefined ? undefined : `/${v2Fields[head]}`;
  return `/${head}`;
}

/** The request's warnings, for the order service, which names places by paths into the domain order. */
export const v2OrderWarnings = (warnings: WarningSink): InputWarnings => ({
  add: (kind, detail, path) => warnings.add(kind, detail, path === undefined ? undefined : v2SourceOf(path)),
});

const billingFields = [
  'LastName',
  'FirstName',
  'Insertion',
  'ExtraName',
  'Street',
  'HouseNumber',
  'HouseNumberAddition',
  'PostalCode',
  'CityName',
  'CountryIso',
  'Region',
  'ExtraAddress',
];

/** The v2 order as a domain order, and the v2-only problems found on the way (reported with the domain's). */
export async function newOrderFromV2(
  db: Db,
  clientId: number,
  body: Body,
  warnings: WarningSink = noWarnings,
): Promise<{ order: NewOrder; problems: ProblemCollector }> {
  const problems = new ProblemCollector();
  if (body.paymentMethodId !== 1) problems.add('400', 'paymentMethodId must be 1.');
  const language = await findLanguage(db, clientId, body.languageId);
  if (!language) problems.add('400', `languageId ${body.languageId} is not one of the languages of GET /settings/get.`);

  const warehouseOf = (id: number | null | undefined, where: string): WarehouseCode | null => {
    if (id === undefined || id === null) return null;
    const code = v2WarehouseIds[id];
    if (!code) problems.add('400', `warehouseId ${id} ${where} is not a known warehouse.`);
    return code ?? null;
  };
  let fulfillFrom = warehouseOf(body.warehouseId, 'on the order');

  let preferredShippingMethodId = body.shippingMethodId ?? undefined;
  if (preferredShippingMethodId !== undefined) {
    // A warehouse's shipping method stands for its main method shipped from that warehouse.
    const warehouseMethod = await findWarehouseShippingMethod(db, clientId, preferredShippingMethodId);
    if (warehouseMethod?.mainShippingMethodId) {
      preferredShippingMethodId = warehouseMethod.mainShippingMethodId;
      fulfillFrom ??= warehouseMethod.warehouse as WarehouseCode | null;
    }
  }

  // Empty: the order service applies the default, and notes it.
  const currency = textOf(body.currency)?.toUpperCase();
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency))
    problems.add('400', `currency "${currency}" is not a 3-letter currency code.`);

  const country = body.deliveryAddressCountryIso.toUpperCase();
  const orderWarnings = v2OrderWarnings(warnings);
  const delivery = checkAddress(addressOf(body, 'deliveryAddress', country, warnings), 'delivery', orderWarnings, [
    'deliveryAddress',
    'street1',
  ]);
  if (delivery.problem) problems.add('400', delivery.problem);
  // biome-ignore lint/suspicious/noExplicitAny: billing fields are read by composed name, as in addressOf.
  const billing = billingFields.some((f) => !blank((body as Record<string, any>)[`billingAddress${f}`]))
    ? checkAddress(addressOf(body, 'billingAddress', country, warnings), 'billing', orderWarnings, ['billingAddress', 'street1']).address
    : undefined;
  if (billing && (!billing.street1 || !billing.city))
    problems.add(
      '400',
      'A billing address needs billingAddressStreet and billingAddressCityName; leave every billing field empty to bill the delivery address.',
    );

  const item = (i: Item, index: number) => {
    const pointer = `/orderItems/${index}`;
    const price = Math.round(i.price * 100) / 100;
    if (rounds(i.price * 100)) warnings.add('coerced', `${i.price} rounded to ${price} (2 decimals)`, `${pointer}/price`);
    return {
      sku: i.sku,
      quantity: i.quantity,
      price,
      vat: blank(i.vat) ? undefined : vatFraction(Number(i.vat), `${pointer}/vat`, warnings),
      name: textOf(i.name),
      fulfillFrom: warehouseOf(i.warehouseId, `on item ${i.sku}`),
      metadata: { extra6: textOf(i.extra6), extra7: textOf(i.extra7) },
    };
  };

  const pickUpPointCountry = textOf(body.pickUpPointCountryIso);
  if (!blank(body.pickUpPointId) && !pickUpPointCountry)
    warnings.add('default', `not given: the delivery country ${country}`, '/pickUpPointCountryIso');

  const order: NewOrder = {
    externalOrderNumber: body.externalOrderNumber,
    // The client's language codes are upper-case by default (NL); a locale's language part is lower-case (nl-NL).
    locale: `${language?.code.toLowerCase() ?? 'en'}-${country.slice(0, 2)}`,
    reference: textOf(body.extraReference),
    consumerReference: textOf(body.clientReference),
    promotionCode: textOf(body.actionCode),
    email: textOf(body.email) ?? undefined,
    phoneNumber: textOf(body.phoneNumber),
    vatNumber: textOf(body.vatNumber),
    fulfillFrom,
    preferredShippingDate: body.preferredShippingDate ? body.preferredShippingDate.slice(0, 10) : null,
    allowPartialDelivery: body.partialDelivery ?? undefined,
    onHold: body.onHold ?? undefined,
    currency,
    metadata: {
      extra1: textOf(body.extra1),
      extra2: textOf(body.extra2),
      extra3: textOf(body.extra3),
      extra4: textOf(body.extra4),
      extra5: textOf(body.extra5),
    },
    orderTypeId: body.orderTypeId,
    preferredShippingMethodId,
    deliveryAddress: delivery.address,
    billingAddress: billing,
    pickUpPoint: blank(body.pickUpPointId)
      ? undefined
      : {
          identifier: textOf(body.pickUpPointId)!,
          name: textOf(body.pickUpPointName),
          street1: textOf(body.pickUpPointStreet),
          street2: textOf(body.pickUpPointExtraAddress),
          houseNumber: textOf(body.pickUpPointHouseNumber),
          houseNumberExtension: textOf(body.pickUpPointHouseNumberAddition),
          postcode: textOf(body.pickUpPointPostalCode),
          city: textOf(body.pickUpPointCityName),
          region: textOf(body.pickUpPointRegion),
          countryCode: (pickUpPointCountry ?? country).toUpperCase(),
        },
    items: body.orderItems.map(item),
    isValid: delivery.valid,
  };
  return { order, problems };
}
