// v3 inbound packing slips, inbounds and inbound items, and the sandbox helper that receives a packing slip.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { inboundStatuses, limits, operationById, packingSlipStatuses, type InboundPackingSlipCreateDocument } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { compileBodyValidator, validationItems } from '../shared/validation.ts';
import { enumListFilter, includesOf, pageOf, paginationLinks } from '../shared/query.ts';
import {
  createPackingSlip,
  findInbound,
  findInboundItem,
  findPackingSlip,
  findPackingSlipItem,
  itemsOfInbounds,
  itemsOfPackingSlips,
  latestInbounds,
  listInbounds,
  listPackingSlips,
  receivePackingSlip,
  type InboundRow,
  type PackingSlipRow,
  type ReceivedQuantity,
} from '../../modules/inbound/service.ts';
import type { Client } from '../../modules/clients/client.ts';
import { inboundItemResource, inboundResource, packingSlipItemResource, packingSlipResource } from './resources.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError, domainError } from '../../platform/errors.ts';

const slipIncludes = ['inboundPackingSlipItems'];
const inboundIncludes = ['inboundItems'];

/**
 * A list page whose included items would pass `limits.includedItemsMaxPerPage` ends after the last row whose items
 * still fit (the first row always stays); `cut` makes the links point to the next page.
 */
function cutByItems<R extends { id: number }, I>(rows: R[], items: I[], ownerOf: (item: I) => number) {
  const counts = new Map<number, number>();
  for (const item of items) counts.set(ownerOf(item), (counts.get(ownerOf(item)) ?? 0) + 1);
  let running = 0;
  const kept = rows.filter((row, position) => {
    running += counts.get(row.id) ?? 0;
    return position === 0 || running <= limits.includedItemsMaxPerPage;
  });
  const keptIds = new Set(kept.map((row) => row.id));
  return { rows: kept, items: items.filter((item) => keptIds.has(ownerOf(item))), cut: kept.length < rows.length };
}

export function inboundRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  async function slipDocuments(all: PackingSlipRow[], include: Set<string>, base: string) {
    const [allItems, inbounds] = await Promise.all([
      itemsOfPackingSlips(
        db,
        all.map((s) => s.id),
      ),
      latestInbounds(
        db,
        all.map((s) => s.id),
      ),
    ]);
    const { rows, items, cut } = include.size
      ? cutByItems(all, allItems, (i) => i.inboundPackingSlipId)
      : { rows: all, items: allItems, cut: false };
    return {
      data: rows.map((s) =>
        packingSlipResource(
          s,
          items.filter((i) => i.inboundPackingSlipId === s.id).map((i) => i.id),
          inbounds.get(s.id),
          base,
        ),
      ),
      ...(include.size ? { included: items.map((i) => packingSlipItemResource(i, base)) } : {}),
      rows,
      cut,
    };
  }

  async function inboundDocuments(all: InboundRow[], include: Set<string>, base: string) {
    const allItems = await itemsOfInbounds(
      db,
      all.map((i) => i.id),
    );
    const { rows, items, cut } = include.size ? cutByItems(all, allItems, (i) => i.inboundId) : { rows: all, items: allItems, cut: false };
    return {
      data: rows.map((i) =>
        inboundResource(
          i,
          items.filter((item) => item.inboundId === i.id).map((item) => item.id),
          base,
        ),
      ),
      ...(include.size ? { included: items.map((i) => inboundItemResource(i, base)) } : {}),
      rows,
      cut,
    };
  }

  async function requireInbound(client: Client, id: number) {
    const inbound = await findInbound(db, client, id);
    if (!inbound) throw domainError('404', `Inbound ${id} not found.`);
    return inbound;
  }

  route(app, 'listInboundPackingSlips', async (request) => {
    const base = baseOf(request);
    const q = request.query;
    const page = pageOf(q, request.warnings);
    const include = includesOf(q, slipIncludes);
    const rows = await listPackingSlips(
      db,
      request.client,
      {
        statuses: enumListFilter(q, 'filter[status][in]', packingSlipStatuses),
        receivedOnLt: q['filter[receivedOn][lt]'],
        receivedOnGt: q['filter[receivedOn][gt]'],
        completedOnLt: q['filter[completedOn][lt]'],
        completedOnGt: q['filter[completedOn][gt]'],
      },
      page,
    );
    const { rows: shown, cut, ...document } = await slipDocuments(rows, include, base);
    return { ...document, links: paginationLinks(request, base, page, shown, cut) };
  });

  route<Static<typeof InboundPackingSlipCreateDocument>>(app, 'createInboundPackingSlip', async (request) => {
    const { attributes } = request.body.data;
    const id = await createPackingSlip(db, request.client, {
      ...attributes,
      items: request.body.included.map((item, index) => ({ ...item.attributes, pointer: `/included/${index}/attributes/sku` })),
    });
    const { data, included } = await slipDocuments(
      [(await findPackingSlip(db, request.client, id))!],
      new Set(slipIncludes),
      baseOf(request),
    );
    return { data: data[0], included };
  });

  route(app, 'getInboundPackingSlip', async (request) => {
    const include = includesOf(request.query, slipIncludes);
    const slip = await findPackingSlip(db, request.client, request.params.id);
    if (!slip) throw domainError('404', `Inbound packing slip ${request.params.id} not found.`);
    const { data, included } = await slipDocuments([slip], include, baseOf(request));
    return { data: data[0], ...(included ? { included } : {}) };
  });

  route(app, 'getInboundPackingSlipItem', async (request) => {
    const item = await findPackingSlipItem(db, request.client, request.params.id);
    if (!item) throw domainError('404', `Inbound packing slip item ${request.params.id} not found.`);
    return { data: packingSlipItemResource(item, baseOf(request)) };
  });

  route(app, 'listInbounds', async (request) => {
    const base = baseOf(request);
    const q = request.query;
    const page = pageOf(q, request.warnings);
    const include = includesOf(q, inboundIncludes);
    const rows = await listInbounds(db, request.client, { statuses: enumListFilter(q, 'filter[status][in]', inboundStatuses) }, page);
    const { rows: shown, cut, ...document } = await inboundDocuments(rows, include, base);
    return { ...document, links: paginationLinks(request, base, page, shown, cut) };
  });

  route(app, 'getInbound', async (request) => {
    const include = includesOf(request.query, inboundIncludes);
    const { data, included } = await inboundDocuments([await requireInbound(request.client, request.params.id)], include, baseOf(request));
    return { data: data[0], ...(included ? { included } : {}) };
  });

  route(app, 'getInboundItem', async (request) => {
    const item = await findInboundItem(db, request.client.id, request.params.id);
    if (!item) throw domainError('404', `Inbound item ${request.params.id} not found.`);
    return { data: inboundItemResource(item, baseOf(request)) };
  });

  // The body is optional, which Fastify's body validation does not allow: it is checked here when present.
  const receiveBody = compileBodyValidator(operationById('sandboxReceiveInboundPackingSlip').body!);
  route<{ items?: ReceivedQuantity[] } | undefined>(
    app,
    'sandboxReceiveInboundPackingSlip',
    async (request) => {
      if (request.body !== undefined && !receiveBody(request.body))
        throw new DomainError(validationItems(receiveBody.errors ?? [], 'body'));
      const id = await receivePackingSlip(db, request.client, request.params.id, request.body?.items);
      const { data, included } = await inboundDocuments(
        [await requireInbound(request.client, id)],
        new Set(inboundIncludes),
        baseOf(request),
      );
      return { data: data[0], included };
    },
    { bodySchema: false },
  );
}
