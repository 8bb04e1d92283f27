// The single image of a product: accepted by what its bytes are (magic numbers), never by the Content-Type header alone.
// A large image is read in a worker thread and stored in parts (platform/file-parts.ts), so it never holds the event loop.
import { and, eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { detectFileType, PoolBusyError } from '../../platform/untrusted-files/index.ts';
import { assertRoomFor, type QuotaBytes, storeFile } from '../../platform/file-parts.ts';
import type { Turn } from '../../platform/fair-share.ts';
import { productColumns, type ProductRow } from './service.ts';
import { domainError } from '../../platform/errors.ts';

const { products } = schema;

/**
 * The accepted types (png, x-png, apng, jpg, jpeg, pjpeg, gif, bmp, webp, x-photoshop) as file-type reports them:
 * x-png and pjpeg are older names of png and jpeg, x-photoshop is psd.
 */
const acceptedExtensions: ReadonlySet<string> = new Set(['png', 'apng', 'jpg', 'gif', 'bmp', 'webp', 'psd']);

export const imageTooLarge = () => domainError('400-8', `The image must be smaller than ${limits.productImageMaxBytes / 1024 / 1024} MiB.`);

/**
 * Up to this size the type is read here: file-type walks a PNG's chunks or a JPEG's segments, a few milliseconds for
 * this much (v2's encodedImage is at most 100 KB), against a worker's round trip. Larger files go to a worker.
 */
const DETECT_IN_PROCESS_MAX_BYTES = 256 * 1024;

/** The file's type, and its bytes: handed to a worker and back for a large one (`content` itself is empty after). */
async function detectType(content: Buffer): Promise<{ ext: string; mime: string; bytes: Buffer } | undefined> {
  if (content.length <= DETECT_IN_PROCESS_MAX_BYTES) {
    // Loaded at the first image rather than at start, like pdf-lib for the return labels.
    const type = await (await import('file-type')).fileTypeFromBuffer(content);
    return type && { ext: type.ext, mime: type.mime, bytes: content };
  }
  try {
    return await detectFileType(content);
  } catch (error) {
    if (error instanceof PoolBusyError)
      throw domainError('503', 'Too many files are being checked at the moment; send the image again in a few seconds.');
    throw error;
  }
}

/**
 * The image's media type, read from its bytes, and the bytes (a large image's went to a worker and back: use these, not
 * `content`); refuses what is not an accepted image. The size is the caller's limit (v3 or v2).
 */
export async function checkImage(content: Buffer): Promise<{ contentType: string; content: Buffer }> {
  const detected = content.length ? await detectType(content) : undefined;
  if (!detected || !acceptedExtensions.has(detected.ext)) {
    throw domainError(
      '400-8',
      `The file is ${detected ? detected.mime : 'not a recognisable image'}; accepted: png, apng, jpeg, gif, bmp, webp and Photoshop images.`,
    );
  }
  return { contentType: detected.mime, content: detected.bytes };
}

/**
 * The image counts towards the client's storage quota (a 413 when it does not fit), less the image it replaces. Its
 * storing runs in the client's turns (`turn`: the API's fair share).
 */
export async function setProductImage(
  db: Db,
  clientId: number,
  productId: number,
  content: Buffer,
  quota: QuotaBytes,
  turn?: Turn,
): Promise<{ product: ProductRow; contentType: string; size: number }> {
  // Another client's product (or none) is a 404 whatever the bytes are: the answer must not depend on them.
  const [owned] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(ownedBy(products, clientId), eq(products.id, productId)));
  if (!owned) throw domainError('404', `Product ${productId} not found.`);
  if (content.length >= limits.productImageMaxBytes) throw imageTooLarge();
  const file = { clientId, owner: 'productImage', ownerId: productId } as const;
  await assertRoomFor(db, clientId, content.length, quota, file);
  const { contentType, content: checked } = await checkImage(content);
  const upload = { clientId, owner: 'productImage', ownerId: productId, bytes: checked, quota, turn } as const;
  return storeFile(db, upload, async (tx) => {
    // The update locks the product, so two uploads for it replace its image one after the other.
    const [product] = await tx
      .update(products)
      .set({ imageContentType: contentType, updatedAt: new Date() })
      .where(and(ownedBy(products, clientId), eq(products.id, productId)))
      .returning(productColumns);
    if (!product) throw domainError('404', `Product ${productId} not found.`);
    // One image per product: the new one replaces the old.
    return { ownerId: productId, result: { product, contentType, size: checked.length } };
  });
}
