// v3 stock, stock locations, stock levels and stock mutations (read-only): thin handlers over the inventory service.
import type { FastifyInstance } from 'fastify';
import { expirationStatuses, locationTypes, stockMutationTypes } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { enumListFilter, includesOf, listFilter, pageOf, paginationLinks } from '../shared/query.ts';
import {
  findStock,
  findStockLevels,
  findStockLocation,
  findStockMutation,
  listStock,
  listStockLevels,
  listStockMutations,
} from '../../modules/inventory/service.ts';
import { stockDocuments, stockLevelResource, stockLocationResource, stockMutationResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

const stockIncludes = ['stockLocation'];

export function stockRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listStock', async (request) => {
    const base = baseOf(request);
    const q = request.query;
    const page = pageOf(q, request.warnings);
    const include = includesOf(q, stockIncludes);
    const rows = await listStock(
      db,
      request.client.id,
      {
        locationTypes: enumListFilter(q, 'filter[locationType][in]', locationTypes),
        skus: listFilter(q, 'filter[sku][in]'),
        modifiedOnLt: q['filter[modifiedOn][lt]'],
        modifiedOnGt: q['filter[modifiedOn][gt]'],
        expirationStatuses: enumListFilter(q, 'filter[expirationStatus][in]', expirationStatuses),
      },
      page,
    );
    return { ...(await stockDocuments(db, request.client.id, rows, include, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getStock', async (request) => {
    const include = includesOf(request.query, stockIncludes);
    const row = await findStock(db, request.client.id, request.params.id);
    if (!row) throw domainError('404', `Stock ${request.params.id} not found.`);
    const { data, ...rest } = await stockDocuments(db, request.client.id, [row], include, baseOf(request));
    return { data: data[0], ...rest };
  });

  route(app, 'getStockLocation', async (request) => {
    const location = await findStockLocation(db, request.client.id, request.params.id);
    if (!location) throw domainError('404', `Stock location ${request.params.id} not found.`);
    return { data: stockLocationResource(location, baseOf(request)) };
  });

  route(app, 'listStockLevels', async (request) => {
    const base = baseOf(request);
    const q = request.query;
    const page = pageOf(q, request.warnings);
    const rows = await listStockLevels(
      db,
      request.client,
      {
        skus: listFilter(q, 'filter[sku][in]'),
        mutatedOnGte: q['filter[mutatedOn][gte]'],
        sort: q.sort ?? 'id',
      },
      page,
    );
    return {
      data: rows.map((r) => stockLevelResource(r, base)),
      links: paginationLinks(
        request,
        base,
        page,
        rows.map((r) => ({ id: r.productId })),
      ),
    };
  });

  route(app, 'getStockLevel', async (request) => {
    const level = await findStockLevels(db, request.client, request.params.id);
    if (!level) throw domainError('404', `Product ${request.params.id} not found.`);
    return { data: stockLevelResource(level, baseOf(request)) };
  });

  route(app, 'listStockMutations', async (request) => {
    const base = baseOf(request);
    const q = request.query;
    const page = pageOf(q, request.warnings);
    const rows = await listStockMutations(
      db,
      request.client,
      {
        createdOnLt: q['filter[createdOn][lt]'],
        createdOnGt: q['filter[createdOn][gt]'],
        types: enumListFilter(q, 'filter[type][in]', stockMutationTypes),
        synced: q['filter[synced]'],
      },
      page,
    );
    return { data: rows.map((m) => stockMutationResource(m, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getStockMutation', async (request) => {
    const mutation = await findStockMutation(db, request.client, request.params.id);
    if (!mutation) throw domainError('404', `Stock mutation ${request.params.id} not found.`);
    return { data: stockMutationResource(mutation, baseOf(request)) };
  });
}
