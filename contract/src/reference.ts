// Reference data: the templates a new client's settings start from (the integrator reshapes them with
// PUT /sandbox/settings), and the fixed lists every client shares.
import type { WarehouseCode } from './enums.ts';

export const euCountryCodes = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** Countries where postcode and house number are required (v2 spec section 5; v3 follows the same rule). */
export const houseNumberRequiredCountries = new Set(['NL', 'BE', 'DE']);

/** Obsolete in the spec: every order names the single method 1. Its code is the one real accounts show. */
export const paymentMethods = [{ id: 1, code: 'GI', name: 'Giro' }];

export const countryTemplates = [
  ['NL', 'Netherlands'],
  ['BE', 'Belgium'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['GB', 'United Kingdom'],
  ['LU', 'Luxembourg'],
  ['AT', 'Austria'],
  ['DK', 'Denmark'],
  ['ES', 'Spain'],
  ['IT', 'Italy'],
  ['PL', 'Poland'],
  ['SE', 'Sweden'],
  ['IE', 'Ireland'],
  ['PT', 'Portugal'],
  ['FI', 'Finland'],
  ['CZ', 'Czechia'],
  ['CH', 'Switzerland'],
  ['NO', 'Norway'],
  ['US', 'United States'],
  ['ES-CN', 'Canary Islands'],
].map(([code, name]) => ({ code, name }));

/** ISO 639-1 codes in upper case, names in Dutch, as the warehouse's own system lists them; at most 11 (spec). */
export const languageTemplates = [
  ['NL', 'Nederlands'],
  ['EN', 'Engels'],
  ['DE', 'Duits'],
  ['FR', 'Frans'],
  ['ES', 'Spaans'],
  ['IT', 'Italiaans'],
  ['PL', 'Pools'],
  ['SV', 'Zweeds'],
  ['DA', 'Deens'],
  ['PT', 'Portugees'],
  ['FI', 'Fins'],
].map(([code, name]) => ({ code, name }));

export const orderTypeTemplates = [
  { code: 'webwinkel_orders', name: 'Webwinkel orders', allowPartialDelivery: false },
  { code: 'b2b_orders', name: 'B2B orders', allowPartialDelivery: true },
  { code: 'replenishment', name: 'Replenishment', allowPartialDelivery: true },
];

/** The first is the default for orders that name no shipping method. */
export const mainShippingMethodTemplates: { code: string; name: string; carrier: string; warehouses: WarehouseCode[] }[] = [
  { code: 'POSTNL_STANDARD', name: 'PostNL Standaard', carrier: 'PostNL', warehouses: ['NR', 'NN', 'GN', 'BW', 'DD', 'FP'] },
  { code: 'POSTNL_PICKUP', name: 'PostNL Afhaalpunt', carrier: 'PostNL', warehouses: ['NR', 'NN', 'BW'] },
  { code: 'DHL_EXPRESS', name: 'DHL Express next day', carrier: 'DHL', warehouses: ['NR', 'NN', 'BW', 'DD'] },
  { code: 'DPD_CLASSIC', name: 'DPD Classic', carrier: 'DPD', warehouses: ['NR', 'BW', 'DD', 'FP'] },
];

export const returnShippingMethodTemplates = [
  { code: 'POSTNL_RETURN', name: 'PostNL Retour', carrier: 'PostNL', paperless: false },
  { code: 'POSTNL_RETURN_QR', name: 'PostNL Retour zonder label (QR-code)', carrier: 'PostNL', paperless: true },
  { code: 'DHL_RETURN', name: 'DHL Retour', carrier: 'DHL', paperless: false },
];

export const returnReasonTemplates = [
  { code: 'TOO_SMALL', name: 'Te klein' },
  { code: 'TOO_LARGE', name: 'Te groot' },
  { code: 'DAMAGED', name: 'Beschadigd ontvangen' },
  { code: 'NOT_AS_DESCRIBED', name: 'Niet zoals beschreven' },
  { code: 'WRONG_ITEM', name: 'Verkeerd artikel ontvangen' },
  { code: 'CHANGED_MIND', name: 'Bedacht' },
  { code: 'OTHER', name: 'Anders' },
];
