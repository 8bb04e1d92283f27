// v3 inbound packing slips, inbounds and inbound items, and the sandbox helper that receives a packing slip.
import type { FastifyInstance } from 'fastify';
import { inboundStatuses, operationById, packingSlipStatuses } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { compileBodyValidator, validationItems } from '../shared/validation.ts';
import { enumListFilter, includesOf, pageOf, paginationLinks } from '../shared/query.ts';
import {
  createPackingSlip,
  findInbound,
  findInboundItem,
  findPackingSlip,
  findPackingSlipItem,
  listInbounds,
  listPackingSlips,
  receivePackingSlip,
} from '../../modules/inbound/service.ts';
import type { Client } from '../../modules/clients/client.ts';
import { refuseWhileAdvancing } from '../../modules/clients/clock.ts';
import { inboundDocuments, inboundItemResource, packingSlipDocuments, packingSlipItemResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError, domainError } from '../../platform/errors.ts';
import { bodyPointer, itemsInIncluded, locating } from '../shared/problem-pointers.ts';

const slipIncludes = ['inboundPackingSlipItems'];
const inboundIncludes = ['inboundItems'];

export function inboundRoutes(app: FastifyInstance, { db, baseOf, services }: AppContext) {
  async function requireInbound(client: Client, id: number) {
    const inbound = await findInbound(db, services.eventPayloads, client, id);
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
      services.eventPayloads,
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
    const { rows: shown, cut, ...document } = await packingSlipDocuments(db, rows, include, base);
    return { ...document, links: paginationLinks(request, base, page, shown, cut) };
  });

  route(app, 'createInboundPackingSlip', async (request) => {
    const { attributes } = request.body.data;
    const id = await locating(
      itemsInIncluded,
      createPackingSlip(db, request.client, { ...attributes, items: request.body.included.map((item) => item.attributes) }),
    );
    const { data, included } = await packingSlipDocuments(
      db,
      [(await findPackingSlip(db, services.eventPayloads, request.client, id))!],
      new Set(slipIncludes),
      baseOf(request),
    );
    return { data: data[0], included };
  });

  route(app, 'getInboundPackingSlip', async (request) => {
    const include = includesOf(request.query, slipIncludes);
    const slip = await findPackingSlip(db, services.eventPayloads, request.client, request.params.id);
    if (!slip) throw domainError('404', `Inbound packing slip ${request.params.id} not found.`);
    const { data, included } = await packingSlipDocuments(db, [slip], include, baseOf(request));
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
    const rows = await listInbounds(
      db,
      services.eventPayloads,
      request.client,
      { statuses: enumListFilter(q, 'filter[status][in]', inboundStatuses) },
      page,
    );
    const { rows: shown, cut, ...document } = await inboundDocuments(db, rows, include, base);
    return { ...document, links: paginationLinks(request, base, page, shown, cut) };
  });

  route(app, 'getInbound', async (request) => {
    const include = includesOf(request.query, inboundIncludes);
    const { data, included } = await inboundDocuments(
      db,
      [await requireInbound(request.client, request.params.id)],
      include,
      baseOf(request),
    );
    return { data: data[0], ...(included ? { included } : {}) };
  });

  route(app, 'getInboundItem', async (request) => {
    const item = await findInboundItem(db, request.client.id, request.params.id);
    if (!item) throw domainError('404', `Inbound item ${request.params.id} not found.`);
    return { data: inboundItemResource(item, baseOf(request)) };
  });

  // Validated by hand: the body is optional, and Fastify validates a missing body as null, which the schema (an object)
  // refuses; making the schema nullable would change the answers' wording. It is checked here when present.
  const receiveBody = compileBodyValidator(operationById('sandboxReceiveInboundPackingSlip').body!);
  route(
    app,
    'sandboxReceiveInboundPackingSlip',
    async (request) => {
      if (request.body !== undefined && !receiveBody(request.body))
        throw new DomainError(validationItems(receiveBody.errors ?? [], 'body'));
      await refuseWhileAdvancing(db, request.client.id);
      const id = await locating(
        bodyPointer,
        receivePackingSlip(db, services.eventPayloads, request.client, request.params.id, request.body?.items),
      );
      const { data, included } = await inboundDocuments(
        db,
        [await requireInbound(request.client, id)],
        new Set(inboundIncludes),
        baseOf(request),
      );
      return { data: data[0], included };
    },
    { bodySchema: false },
  );
}
