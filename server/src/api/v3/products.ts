// v3 products and the product image: thin handlers over the product service.
import type { FastifyError, FastifyInstance } from 'fastify';
import { limits } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { listFilter, pageOf, paginationLinks } from '../shared/query.ts';
import { createProduct, listProducts, requireProduct, updateProduct, type ProductRow } from '../../modules/products/service.ts';
import { imageTooLarge, setProductImage } from '../../modules/products/image.ts';
import { productDocuments } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { locating, withRelationships } from '../shared/problem-pointers.ts';
import { stepOutOfFairShare } from '../shared/fair-share.ts';
import { uploadTurns } from '../shared/upload-pace.ts';

export function productRoutes(app: FastifyInstance, { db, baseOf, config, uploadPace }: AppContext) {
  async function productDocument(clientId: number, product: ProductRow, base: string) {
    const [data] = await productDocuments(db, clientId, [product], base);
    return { data };
  }

  route(app, 'listProducts', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const rows = await listProducts(
      db,
      request.client.id,
      {
        skus: listFilter(request.query, 'filter[sku][in]'),
        barcodes: listFilter(request.query, 'filter[barcode][in]'),
      },
      page,
    );
    return { data: await productDocuments(db, request.client.id, rows, base), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'createProduct', async (request) => {
    const { attributes, relationships } = request.body.data;
    const product = await locating(
      withRelationships('parts'),
      createProduct(db, request.client.id, {
        ...attributes,
        parts: relationships?.parts?.data.map((p) => ({ id: p.id, quantity: p.meta.quantity })),
      }),
    );
    return productDocument(request.client.id, product, baseOf(request));
  });

  route(app, 'getProduct', async (request) =>
    productDocument(request.client.id, await requireProduct(db, request.client.id, request.params.id), baseOf(request)),
  );

  route(app, 'updateProduct', async (request) => {
    const product = await updateProduct(db, request.client.id, request.params.id, request.body.data.attributes);
    return productDocument(request.client.id, product, baseOf(request));
  });

  // The image arrives as raw bytes: its own parsers, with the image size limit, only in this context.
  app.register(async (imageContext) => {
    imageContext.addContentTypeParser(
      /^(image\/[\w.+-]+|application\/octet-stream)$/i,
      { parseAs: 'buffer', bodyLimit: limits.productImageMaxBytes },
      (_request, body, done) => done(null, body),
    );
    // A body over the limit is refused by Fastify before the handler runs; it is still an image rejection (400-8).
    imageContext.setErrorHandler((error: FastifyError) => {
      throw error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? imageTooLarge() : error;
    });
    // The body is the image's raw bytes (a Buffer), not the string the contract's schema documents for OpenAPI: Fastify's
    // validation would check the Buffer against that schema, so it stays off; setProductImage checks the image itself.
    route<'uploadProductImage', Buffer | undefined>(
      imageContext,
      'uploadProductImage',
      async (request, reply) => {
        // The image is read in a worker and its parts are written a statement at a time, each in a turn of the client:
        // other calls have this call's place meanwhile, as multipart uploads never take one.
        stepOutOfFairShare(request);
        // No body at all is an empty image, rejected like any other unrecognisable one.
        const content = request.body ?? Buffer.alloc(0);
        // The image's check and storing wait for the client's pace of uploads, and its storing's turns carry the body's
        // reading (done before this call took its place).
        const turns = await uploadTurns(uploadPace, request, reply, content.length);
        // The image's bytes go to a worker and back: `content` is empty after, the size is the stored image's.
        const { product, contentType, size } = await setProductImage(
          db,
          request.client.id,
          request.params.id,
          content,
          config.storageQuotaBytes,
          turns,
        );
        const document = await productDocument(request.client.id, product, baseOf(request));
        return {
          ...document,
          meta: {
            code: '200-1',
            title: 'Image accepted',
            detail: `The image of product ${product.id} is stored; it replaces any earlier one.`,
            contentType,
            size,
          },
        };
      },
      { bodySchema: false },
    );
  });
}
