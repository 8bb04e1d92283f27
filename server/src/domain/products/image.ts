// The single image of a product: accepted by what its bytes are (magic numbers), never by the Content-Type header alone.
import { and, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { limits } from '@shopapi/contract';
import { schema, type Db } from '../../db/index.ts';
import { apiError } from '../../http/errors.ts';
import { productColumns, type ProductRow } from './service.ts';

const { products } = schema;

/**
 * The accepted types (png, x-png, apng, jpg, jpeg, pjpeg, gif, bmp, webp, x-photoshop) as file-type reports them:
 * x-png and pjpeg are older names of png and jpeg, x-photoshop is psd.
 */
const acceptedExtensions = new Set(['png', 'apng', 'jpg', 'gif', 'bmp', 'webp', 'psd']);

export const imageTooLarge = () => apiError('400-8', `The image must be smaller than ${limits.productImageMaxBytes / 1024 / 1024} MiB.`);

/** The image's media type, read from its bytes; refuses what is not an accepted image. The size is the caller's limit (v3 or v2). */
export async function imageContentType(content: Buffer): Promise<string> {
  const detected = content.length ? await fileTypeFromBuffer(content) : undefined;
  if (!detected || !acceptedExtensions.has(detected.ext)) {
    throw apiError('400-8', `The file is ${detected ? detected.mime : 'not a recognisable image'}; accepted: png, apng, jpeg, gif, bmp, webp and Photoshop images.`);
  }
  return detected.mime;
}

export async function setProductImage(db: Db, clientId: number, productId: number, content: Buffer): Promise<{ product: ProductRow; contentType: string }> {
  // Another client's product (or none) is a 404 whatever the bytes are: the answer must not depend on them.
  const [owned] = await db.select({ id: products.id }).from(products).where(and(eq(products.clientId, clientId), eq(products.id, productId)));
  if (!owned) throw apiError('404', `Product ${productId} not found.`);
  if (content.length >= limits.productImageMaxBytes) throw imageTooLarge();
  const contentType = await imageContentType(content);
  // One image per product: the new one replaces the old.
  const [product] = await db.update(products).set({ image: content, imageContentType: contentType, updatedAt: new Date() })
    .where(and(eq(products.clientId, clientId), eq(products.id, productId))).returning(productColumns);
  if (!product) throw apiError('404', `Product ${productId} not found.`);
  return { product, contentType };
}
