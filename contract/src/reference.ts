// Reference data: the fixed lists every client sees, and the templates seeded for each new client.
import type { WarehouseCode } from './enums.ts';

export const countries = [
  ['NL', 'Netherlands'], ['BE', 'Belgium'], ['DE', 'Germany'], ['FR', 'France'], ['GB', 'United Kingdom'], ['LU', 'Luxembourg'],
  ['AT', 'Austria'], ['DK', 'Denmark'], ['ES', 'Spain'], ['IT', 'Italy'], ['PL', 'Poland'], ['SE', 'Sweden'], ['IE', 'Ireland'],
  ['PT', 'Portugal'], ['FI', 'Finland'], ['CZ', 'Czechia'], ['CH', 'Switzerland'], ['NO', 'Norway'], ['US', 'United States'],
  ['ES-CN', 'Canary Islands'],
].map(([code, name], i) => ({ id: i + 1, code, name }));

export const euCountryCodes = new Set(['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE']);

/** Countries where postcode and house number are required (v2 spec section 5; v3 follows the same rule). */
export const houseNumberRequiredCountries = new Set(['NL', 'BE', 'DE']);

/** At most 11 languages, names in Dutch. */
export const languages = [
  ['nl', 'Nederlands'], ['en', 'Engels'], ['de', 'Duits'], ['fr', 'Frans'], ['es', 'Spaans'], ['it', 'Italiaans'],
  ['pl', 'Pools'], ['sv', 'Zweeds'], ['da', 'Deens'], ['pt', 'Portugees'], ['fi', 'Fins'],
].map(([code, name], i) => ({ id: i + 1, code, name }));

export const paymentMethods = [{ id: 1, code: 'DEFAULT', name: 'Default (obsolete)' }];

export const orderTypeTemplates = [
  { code: 'B2C', name: 'Consumer order', allowPartialDelivery: false },
  { code: 'B2B', name: 'Business order', allowPartialDelivery: true },
  { code: 'REPLENISH', name: 'Replenishment', allowPartialDelivery: true },
];

export const mainShippingMethodTemplates: { code: string; name: string; carrier: string; warehouses: WarehouseCode[] }[] = [
  { code: 'STANDARD', name: 'Standard parcel', carrier: 'PostNL', warehouses: ['NR', 'NN', 'GN', 'BW', 'DD', 'FP'] },
  { code: 'EXPRESS', name: 'Express next day', carrier: 'DHL', warehouses: ['NR', 'NN', 'BW', 'DD'] },
  { code: 'PICKUP', name: 'Pick-up point', carrier: 'PostNL', warehouses: ['NR', 'NN', 'BW'] },
];

export const returnShippingMethodTemplates = [
  { code: 'RETURN_POST', name: 'Return by post', carrier: 'PostNL' },
  { code: 'RETURN_PAPERLESS', name: 'Paperless return', carrier: 'DHL' },
];

export const returnReasonTemplates = [
  { code: 'TOO_SMALL', name: 'Too small' }, { code: 'TOO_LARGE', name: 'Too large' }, { code: 'DAMAGED', name: 'Arrived damaged' },
  { code: 'NOT_AS_DESCRIBED', name: 'Not as described' }, { code: 'CHANGED_MIND', name: 'Changed mind' }, { code: 'OTHER', name: 'Other' },
];
