// v3 products.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { ProductCreateDocument } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { apiError } from '../http/errors.ts';
import { listFilter, pageOf, paginationLinks } from '../http/query.ts';
import { createProduct, findProduct, listProducts } from '../domain/products/service.ts';
import { productResource } from './resources.ts';
import type { AppContext } from '../app.ts';

export function productRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listProducts', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query);
    const rows = await listProducts(db, request.client.id, {
      skus: listFilter(request.query, 'filter[sku][in]'),
      barcodes: listFilter(request.query, 'filter[barcode][in]'),
    }, page);
    return { data: rows.map((p) => productResource(p, base)), links: paginationLinks(request, base, page, rows) };
  });

  route<Static<typeof ProductCreateDocument>>(app, 'createProduct', async (request) => {
    const product = await createProduct(db, request.client.id, request.body.data.attributes);
    return { data: productResource(product, baseOf(request)) };
  });

  route(app, 'getProduct', async (request) => {
    const product = await findProduct(db, request.client.id, request.params.id);
    if (!product) throw apiError('404', `Product ${request.params.id} not found.`);
    return { data: productResource(product, baseOf(request)) };
  });
}
