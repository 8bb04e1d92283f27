// v2 products: thin handlers over the product service; v2 field names are mapped onto the product model here.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { limits, v2Messages, v2OnlyProductFields, type V2ProductEdit, metadataExtraFields } from '@shopapi/contract';
import type { WarningSink } from '../../platform/request-warnings.ts';
import {
  createProduct,
  listProducts,
  updateProduct,
  type ProductChanges,
  type ProductExtras,
  type ProductRow,
} from '../../modules/products/service.ts';
import { checkImage } from '../../modules/products/image.ts';
import type { Db } from '../../platform/db/index.ts';
import type { QuotaBytes } from '../../platform/file-parts.ts';
import { ok, v2Route } from './envelope.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

type Fields = Partial<Static<typeof V2ProductEdit>>;
const given = <T>(value: T | null | undefined, map: (v: T) => unknown) =>
  value === undefined ? undefined : value === null ? null : map(value);

/** Only the fields the client sent become changes, so an edit keeps everything else. */
function changesOf(body: Fields, warnings: WarningSink): ProductChanges {
  if (body.description && body.description.length > limits.v2DescriptionMax) {
    warnings.add('coerced', `${body.description.length} characters, cut after ${limits.v2DescriptionMax}`, '/description');
  }
  const changes: Record<string, unknown> = {
    name: body.name ?? undefined,
    barcode: given(body.barcode, (b) => b || null),
    hasBarcode: given(body.barcode, (b) => Boolean(b)),
    description: given(body.description, (d) => d.slice(0, limits.v2DescriptionMax)),
    hsCodes: given(body.harmonisationCode, (code) => (code ? [{ hsCode: code }] : [])),
    countryOfOrigin: given(body.countryOfOriginIso, (c) => c.toUpperCase()),
    purchasePrice: given(body.costPrice, (amount) => [{ currency: 'EUR', amount }]),
    hasExpirationDate: body.hasThtDate ?? undefined,
    // v2 has no expirationDate: a THT product's dates are read at inbound, which is what v3 requires of perishables.
    expirationDate: given(body.hasThtDate, (tht) => (tht ? 'SCAN_AT_INBOUND' : null)),
    expirationDateWarning: body.warningDaysTillThtDate,
    expirationDateMargin: body.maxDaysTillThtDate,
    hasLotNumber: body.hasLotNumber ?? undefined,
    hasSerialNumber: body.hasSerial ?? undefined,
    stockLevelType: given(body.useEconomicStock, (economic) => (economic ? 'ECONOMIC' : 'AVAILABLE')),
  };
  const extras = metadataExtraFields.filter((k) => body[k] !== undefined);
  if (extras.length) changes.metadata = Object.fromEntries(extras.map((k) => [k, body[k] ?? null]));
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ProductChanges;
}

/** The v2-only fields sent (kept in products.legacy) and the encodedImage, checked by its bytes against the v2 limit. */
async function extrasOf(body: Fields, quota: QuotaBytes): Promise<ProductExtras> {
  const sent = v2OnlyProductFields.filter((k) => body[k] !== undefined);
  const extras: ProductExtras = sent.length ? { legacy: Object.fromEntries(sent.map((k) => [k, body[k]])) } : {};
  if (body.encodedImage) {
    const content = Buffer.from(body.encodedImage, 'base64');
    if (content.length > limits.v2EncodedImageMaxBytes)
      throw domainError('400-8', `encodedImage must be at most ${limits.v2EncodedImageMaxBytes / 1024} KB; it is ${content.length} bytes.`);
    extras.image = { ...(await checkImage(content)), quota };
  }
  return extras;
}

async function findBy(db: Db, clientId: number, search: { sku?: string | null; barcode?: string | null }): Promise<ProductRow> {
  const page = { cursor: 0, size: 1 };
  const [found] = search.sku
    ? await listProducts(db, clientId, { skus: [search.sku] }, page)
    : search.barcode
      ? await listProducts(db, clientId, { barcodes: [search.barcode] }, page)
      : [];
  if (!found) throw domainError('404', `No product with ${search.sku ? `sku "${search.sku}"` : `barcode "${search.barcode ?? ''}"`}.`);
  return found;
}

const searchResult = (p: ProductRow) => ({
  sku: p.sku,
  barcode: p.barcode,
  weight: p.weight,
  costPrice: p.purchasePrice.find((price) => price.currency === 'EUR')?.amount ?? null,
  minTHT: p.expirationDateMargin,
});

export function v2ProductRoutes(app: FastifyInstance, { db, config }: AppContext) {
  v2Route(app, 'addProductV2', async (request) => {
    const product = await createProduct(
      db,
      request.client.id,
      { ...changesOf(request.body, request.warnings), sku: request.body.sku, name: request.body.name },
      await extrasOf(request.body, config.storageQuotaBytes),
    );
    return ok(v2Messages.productAdded, product.id);
  });

  v2Route(
    app,
    'editProductV2',
    async (request) => {
      if (request.body.name === null) throw domainError('400', 'name cannot be empty.');
      const product = await findBy(db, request.client.id, { sku: request.body.sku }).catch(() => undefined);
      if (!product) throw domainError('404', `No product with sku "${request.body.sku}".`);
      await updateProduct(
        db,
        request.client.id,
        product.id,
        changesOf(request.body, request.warnings),
        await extrasOf(request.body, config.storageQuotaBytes),
      );
      return ok(v2Messages.requestProcessed, null);
    },
    { keepNotFound: true },
  );

  const miss = { notFound: v2Messages.productNotFound };
  const search = async (
    clientId: number,
    by: { sku?: string | null; barcode?: string | null },
    warnings: WarningSink,
    barcodeSource: string,
  ) => {
    if (by.sku && by.barcode) warnings.add('ignored', 'sku is given and goes first; not read', barcodeSource);
    return ok(v2Messages.productFound, searchResult(await findBy(db, clientId, by)));
  };
  v2Route(app, 'searchProductV2', async (request) => search(request.client.id, request.body, request.warnings, '/barcode'), miss);
  v2Route(app, 'searchProductByQueryV2', async (request) => search(request.client.id, request.query, request.warnings, 'barcode'), miss);
}
