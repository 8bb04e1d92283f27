// v2 returns: RMA over the returns service, return labels (PDF), and processed return items in the v2 shape.
import type { FastifyInstance } from 'fastify';
import { limits, v2Messages } from '@shopapi/contract';
import { processedReturnItems, registerReturn, returnsByIds } from '../../modules/returns/service.ts';
import { ordersByIds } from '../../modules/orders/service.ts';
import { returnReasonsByIds } from '../../modules/reference/service.ts';
import { returnLabel } from '../../modules/shipments/return-label.ts';
import { returnFromV2 } from './mapping/returns.ts';
import { ok, v2Route } from './envelope.ts';
import type { AppContext } from '../shared/context.ts';

export function v2ReturnRoutes(app: FastifyInstance, { db }: AppContext) {
  v2Route(app, 'addRmaV2', async (request) => {
    const id = await registerReturn(db, request.client, await returnFromV2(db, request.client.id, request.body, request.warnings));
    return ok(v2Messages.rmaCreated, id);
  });

  const label = async (client: Parameters<typeof returnLabel>[1], shipmentId: number, methodId?: number) => {
    const found = await returnLabel(db, client, shipmentId, methodId);
    return ok(v2Messages.returnLabelFound, {
      data: Buffer.from(found.pdf).toString('base64'),
      mimeType: 'application/pdf',
      fileName: found.fileName,
      shipmentItemId: found.shipmentItemId,
      packageNumber: found.packageNumber,
      isPaperlessReturnShippingMethod: found.paperless,
    });
  };
  v2Route(app, 'getReturnLabelV2', async (request) => label(request.client, request.params.id), { keepNotFound: true });
  v2Route(app, 'getReturnLabelWithMethodV2', async (request) => label(request.client, request.params.id, request.params.sm), {
    keepNotFound: true,
  });

  v2Route(app, 'getReturnItemsV2', async (request) => {
    const { externalOrderNumber, starttime, endtime } = request.body;
    const items = await processedReturnItems(
      db,
      request.client.id,
      {
        externalOrderNumber,
        from: starttime ? new Date(starttime) : undefined,
        to: endtime ? new Date(endtime) : undefined,
      },
      limits.v2ReturnItemsMax,
    );
    const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];
    const [rmaRows, reasonRows, orderRows] = await Promise.all([
      returnsByIds(db, ids(items.map((i) => i.returnId))),
      returnReasonsByIds(db, ids(items.map((i) => i.returnReasonId))),
      ordersByIds(db, ids(items.map((i) => i.orderId))),
    ]);
    return ok(
      v2Messages.requestProcessed,
      items.map((i) => ({
        id: i.id,
        returnDate: i.processedOn!.toISOString(),
        externalOrderNumber: i.externalOrderNumber,
        sku: i.sku,
        quantity: i.quantity,
        type: i.condition ?? 'UNKNOWN',
        returnReasonId: i.returnReasonId,
        returnReason: reasonRows.find((r) => r.id === i.returnReasonId)?.name ?? null,
        comment: i.comment,
        // The sandbox does not track after-care, postage or the carrier the consumer used.
        afterCare: null,
        porti: null,
        returnShippingMethod: null,
        returnShippingMethodId: null,
        reDeliver: i.redeliver,
        orderType: orderRows.find((o) => o.id === i.orderId)!.orderTypeId,
        warehouseAbbreviation: i.restockIn ?? i.processedIn,
        processedByWarehouseAbbreviation: i.processedIn,
        rmaExternalReference: rmaRows.find((r) => r.id === i.returnId)?.externalReference ?? null,
        rmaItemExternalReference: i.externalReference,
        rmaItemMetadata: i.metadata,
      })),
    );
  });
}
