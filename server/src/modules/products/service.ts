// Products: what orders and inbound goods refer to by sku. The rules of create and update are checked on the product
// as it would be stored, so both paths share them.
import { defaults, limits, productTypesWithParts } from '@shopapi/contract';
import { type Db, isUniqueViolation, type Tx } from '../../platform/db/index.ts';
import type { Metadata } from '../../platform/db/schema/orders.ts';
import { type QuotaBytes, storeParts } from '../../platform/file-parts.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

import {
  findProduct,
  insertProduct,
  lockProduct,
  productsClashing,
  stockQuantity,
  typesOfProducts,
  updateProductRow,
  type ProductPart,
  type ProductRow,
} from './repository.ts';

export {
  findProduct,
  listProducts,
  partsOf,
  productColumns,
  productsOfClient,
  skusAndWeightsByIds,
  type ProductPart,
  type ProductRow,
} from './repository.ts';

export interface HsCode {
  country: string;
  hsCode: string;
}

/** What a client may set on a product (v3 attribute names; v2 maps onto them). */
export interface ProductChanges {
  name?: string;
  description?: string | null;
  hasBarcode?: boolean;
  barcode?: string | null;
  status?: string;
  stockLevelType?: string;
  hasLotNumber?: boolean;
  hasSerialNumber?: boolean;
  hasExpirationDate?: boolean;
  expirationDate?: string | null;
  expirationDateMargin?: number | null;
  expirationDateWarning?: number | null;
  countryOfOrigin?: string | null;
  hsCodes?: { country?: string; hsCode: string }[];
  purchasePrice?: { currency?: string; amount: number }[];
  metadata?: Metadata | null;
  /** Read-only: accepted only when equal to the stored value (null before the first receipt). */
  weight?: number | null;
  length?: number | null;
  width?: number | null;
  height?: number | null;
}

/**
 * What v2 stores with a product in the same write: its v2-only fields (merged into products.legacy) and an image, which
 * counts towards the client's storage quota (a 413 when it does not fit).
 */
export interface ProductExtras {
  legacy?: Record<string, unknown>;
  image?: { content: Buffer; contentType: string; quota: QuotaBytes };
}

const extraColumns = (extras: ProductExtras, storedLegacy: Record<string, unknown> = {}) => ({
  ...(extras.legacy ? { legacy: { ...storedLegacy, ...extras.legacy } } : {}),
  ...(extras.image ? { imageContentType: extras.image.contentType } : {}),
});

/** The image's bytes go to file_parts, in the transaction that writes the product. */
async function storeImage(tx: Tx, clientId: number, productId: number, extras: ProductExtras) {
  if (extras.image) await storeParts(tx, { clientId, owner: 'productImage', ownerId: productId }, extras.image.content, extras.image.quota);
}

export interface NewProduct extends ProductChanges {
  sku: string;
  name: string;
  type?: string;
  parts?: { id: number | string; quantity: number }[];
}

const measurements = ['weight', 'length', 'width', 'height'] as const;

/**
 * Digits only, 6 to 12 of them; the XX entry is the default code. When the client sent no XX entry, it is copied from
 * the EU entry, else the NL entry, else the first one.
 */
export function normalizeHsCodes(entries: { country?: string; hsCode: string }[], problems: ProblemCollector): HsCode[] {
  const out = entries.map((entry, index) => {
    const hsCode = entry.hsCode.replace(/[^0-9]/g, '');
    if (hsCode.length < limits.hsCodeMinDigits || hsCode.length > limits.hsCodeMaxDigits) {
      problems.add(
        '400',
        `hsCode must have ${limits.hsCodeMinDigits} to ${limits.hsCodeMaxDigits} digits; "${entry.hsCode}" has ${hsCode.length}.`,
        { path: ['hsCodes', index, 'hsCode'] },
      );
    }
    return { country: entry.country ?? defaults.hsCodeCountry, hsCode };
  });
  const countries = out.map((e) => e.country);
  countries.forEach((country, index) => {
    if (countries.indexOf(country) !== index)
      problems.add('400', `hsCodes has country ${country} twice.`, { path: ['hsCodes', index, 'country'] });
  });
  if (out.length && !countries.includes(defaults.hsCodeCountry)) {
    const source = out.find((e) => e.country === 'EU') ?? out.find((e) => e.country === 'NL') ?? out[0];
    out.push({ country: defaults.hsCodeCountry, hsCode: source.hsCode });
  }
  return out;
}

/** The stored row a create or update would produce, before it is written. */
type ProductState = Omit<ProductRow, 'id' | 'clientId' | 'createdAt' | 'updatedAt' | 'legacy' | 'imageContentType' | 'costPrice'>;

/** Rules on the product as it would be stored: barcode implies hasBarcode; perishable products need their dates. */
function checkState(state: ProductState, problems: ProblemCollector) {
  if (state.barcode) state.hasBarcode = true;
  if (state.hasExpirationDate) {
    if (state.expirationDate !== 'SCAN_AT_INBOUND')
      problems.add('400', 'A perishable product (hasExpirationDate) needs expirationDate SCAN_AT_INBOUND.', {
        path: ['expirationDate'],
      });
    if (!state.expirationDateMargin || state.expirationDateMargin < 1)
      problems.add('400', 'A perishable product needs a positive expirationDateMargin (days).', {
        path: ['expirationDateMargin'],
      });
    if (state.expirationDateWarning == null || (state.expirationDateMargin && state.expirationDateWarning < state.expirationDateMargin)) {
      problems.add('400', 'A perishable product needs an expirationDateWarning of at least the expirationDateMargin (days).', {
        path: ['expirationDateWarning'],
      });
    }
  } else if (state.expirationDate) {
    problems.add('400', 'expirationDate SCAN_AT_INBOUND is for perishable products: set hasExpirationDate too.', {
      path: ['expirationDate'],
    });
  }
}

/** Weight and dimensions come from the warehouse: a client may only repeat what is stored. */
function checkMeasurements(
  changes: ProductChanges,
  stored: Pick<ProductRow, (typeof measurements)[number]> | undefined,
  problems: ProblemCollector,
) {
  for (const name of measurements) {
    const sent = changes[name];
    const current = stored?.[name] ?? null;
    if (sent !== undefined && sent !== current) {
      problems.add(
        '409',
        `${name} is measured by the warehouse at first receipt${current === null ? '' : ` (${current})`} and cannot be set.`,
        { path: [name] },
      );
    }
  }
}

/** sku and barcode are unique per client: every clash in one answer. */
async function checkUnique(
  db: Db,
  clientId: number,
  sku: string | undefined,
  barcode: string | null,
  exceptId: number | undefined,
  problems: ProblemCollector,
) {
  const clashes = { sku, barcode };
  if (!sku && !barcode) return;
  const rows = await productsClashing(db, clientId, clashes, exceptId);
  if (sku && rows.some((r) => r.sku === sku)) problems.add('409', `A product with sku "${sku}" already exists.`, { path: ['sku'] });
  if (barcode && rows.some((r) => r.barcode === barcode))
    problems.add('409', `A product with barcode "${barcode}" already exists.`, { path: ['barcode'] });
}

/** Parts of a bundle or composite: existing products of the client, each once, that have no parts themselves. */
async function resolveParts(
  db: Db,
  clientId: number,
  type: string,
  parts: NewProduct['parts'],
  problems: ProblemCollector,
): Promise<ProductPart[]> {
  const path = ['parts'];
  const takesParts = (productTypesWithParts as readonly string[]).includes(type);
  if (!takesParts) {
    if (parts?.length)
      problems.add('400', `Only ${productTypesWithParts.join(' and ')} products have parts; this one is ${type}.`, { path });
    return [];
  }
  if (!parts?.length) {
    problems.add('400', `A ${type} product needs its parts in relationships.parts.`, { path });
    return [];
  }
  const ids = parts.map((p) => Number(p.id));
  const found = await typesOfProducts(db, clientId, ids);
  const typeOf = new Map(found.map((r) => [r.id, r.type]));
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) problems.add('400', `Part ${id} is listed twice.`, { path: ['parts', index] });
    else if (!typeOf.has(id)) problems.add('400', `Part ${id} is not one of your products.`, { path: ['parts', index, 'id'] });
    else if ((productTypesWithParts as readonly string[]).includes(typeOf.get(id)!))
      problems.add('400', `Part ${id} is a ${typeOf.get(id)} product itself; parts cannot have parts.`, { path: ['parts', index, 'id'] });
  });
  return parts.map((p, index) => ({ partId: ids[index], quantity: p.quantity }));
}

function uniqueViolation(error: unknown, sku: string, barcode: string | null) {
  if (isUniqueViolation(error, 'products_client_sku_key'))
    return domainError('409', `A product with sku "${sku}" already exists.`, { path: ['sku'] });
  if (isUniqueViolation(error, 'products_client_barcode_key'))
    return domainError('409', `A product with barcode "${barcode}" already exists.`, { path: ['barcode'] });
  return error;
}

/** The stored values for the attributes a client sent; omitted ones keep `base`. */
function applyChanges(base: ProductState, changes: ProductChanges, problems: ProblemCollector): ProductState {
  const pick = <K extends keyof ProductState>(key: K, value: ProductState[K] | undefined) => (value === undefined ? base[key] : value);
  return {
    ...base,
    name: pick('name', changes.name),
    description: pick('description', changes.description),
    hasBarcode: pick('hasBarcode', changes.hasBarcode),
    barcode: pick('barcode', changes.barcode),
    status: pick('status', changes.status),
    stockLevelType: pick('stockLevelType', changes.stockLevelType),
    hasLotNumber: pick('hasLotNumber', changes.hasLotNumber),
    hasSerialNumber: pick('hasSerialNumber', changes.hasSerialNumber),
    hasExpirationDate: pick('hasExpirationDate', changes.hasExpirationDate),
    expirationDate: pick('expirationDate', changes.expirationDate),
    expirationDateMargin: pick('expirationDateMargin', changes.expirationDateMargin),
    expirationDateWarning: pick('expirationDateWarning', changes.expirationDateWarning),
    countryOfOrigin: pick('countryOfOrigin', changes.countryOfOrigin),
    hsCodes: changes.hsCodes === undefined ? base.hsCodes : normalizeHsCodes(changes.hsCodes, problems),
    purchasePrice:
      changes.purchasePrice === undefined
        ? base.purchasePrice
        : changes.purchasePrice.map((p) => ({ currency: p.currency ?? defaults.currency, amount: p.amount })),
    metadata: changes.metadata === undefined ? base.metadata : (changes.metadata ?? {}),
  };
}

/** Problems name their place by a path into the input: ['sku'], ['hsCodes', 0, 'hsCode'], ['parts', 1, 'id']. */
export async function createProduct(db: Db, clientId: number, input: NewProduct, extras: ProductExtras = {}): Promise<ProductRow> {
  const problems = new ProblemCollector();
  const type = input.type ?? 'DEFAULT';
  const initial: ProductState = {
    sku: input.sku,
    name: input.name,
    type,
    description: null,
    hasBarcode: false,
    barcode: null,
    status: 'AVAILABLE',
    stockLevelType: 'AVAILABLE',
    hasLotNumber: false,
    hasSerialNumber: false,
    hasExpirationDate: false,
    expirationDate: null,
    expirationDateMargin: null,
    expirationDateWarning: null,
    countryOfOrigin: null,
    hsCodes: [],
    purchasePrice: [],
    metadata: {},
    weight: null,
    length: null,
    width: null,
    height: null,
  };
  const state = applyChanges(initial, input, problems);
  checkState(state, problems);
  checkMeasurements(input, undefined, problems);
  try {
    return await db.transaction(async (tx) => {
      await checkUnique(tx, clientId, state.sku, state.barcode, undefined, problems);
      const parts = await resolveParts(tx, clientId, type, input.parts, problems);
      problems.throwIfAny();
      const row = await insertProduct(tx, { ...state, clientId, ...extraColumns(extras) }, parts);
      await storeImage(tx, clientId, row.id, extras);
      return row;
    });
  } catch (error) {
    throw uniqueViolation(error, state.sku, state.barcode);
  }
}

export async function updateProduct(
  db: Db,
  clientId: number,
  id: number,
  changes: ProductChanges & { sku?: string; type?: string },
  extras: ProductExtras = {},
): Promise<ProductRow> {
  try {
    return await db.transaction(async (tx) => {
      // Locked, so a receipt cannot slip in between the stock check and the barcode change.
      const stored = await lockProduct(tx, clientId, id);
      if (!stored) throw domainError('404', `Product ${id} not found.`);
      const problems = new ProblemCollector();
      if (changes.sku !== undefined && changes.sku !== stored.sku) problems.add('400', 'sku cannot be changed.', { path: ['sku'] });
      if (changes.type !== undefined && changes.type !== stored.type) problems.add('400', 'type cannot be changed.', { path: ['type'] });
      const {
        id: _id,
        clientId: _clientId,
        createdAt: _createdAt,
        updatedAt: _updatedAt,
        legacy: _legacy,
        imageContentType: _imageType,
        costPrice: _costPrice,
        ...current
      } = stored;
      const state = applyChanges(current, changes, problems);
      checkState(state, problems);
      checkMeasurements(changes, stored, problems);
      if ((state.barcode ?? null) !== (stored.barcode ?? null)) {
        await checkUnique(tx, clientId, undefined, state.barcode, id, problems);
        const units = await stockQuantity(tx, clientId, id);
        if (units > 0)
          problems.add('409', `The barcode cannot change while the product has stock (${units} units).`, { path: ['barcode'] });
      }
      problems.throwIfAny();
      const row = await updateProductRow(tx, clientId, id, { ...state, ...extraColumns(extras, stored.legacy), updatedAt: new Date() });
      await storeImage(tx, clientId, id, extras);
      return row;
    });
  } catch (error) {
    throw uniqueViolation(error, changes.sku ?? '', changes.barcode ?? null);
  }
}

export async function requireProduct(db: Db, clientId: number, id: number): Promise<ProductRow> {
  const row = await findProduct(db, clientId, id);
  if (!row) throw domainError('404', `Product ${id} not found.`);
  return row;
}
