// Sandbox controls over the simulated warehouse: the client's clock, shipping an order now, one shipment's steps, returns.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { shipmentById } from '../../modules/shipments/service.ts';
import type { WarehouseOptions } from '../../warehouse/simulator.ts';
import { beginAdvance, readClock } from '../../modules/clients/clock.ts';
import { advanceShipment, failShipmentNow, returnShipment, shipNow } from '../../warehouse/sandbox.ts';
import { clockResource, returnItemResource, shipmentDocuments } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { bodyPointer, locating } from '../shared/problem-pointers.ts';
import { stepOutOfFairShare } from '../shared/fair-share.ts';

export function sandboxRoutes(app: FastifyInstance, { db, config, baseOf, warehouse, services }: AppContext) {
  const warehouseOptions: WarehouseOptions = { stepSeconds: config.sandboxStepSeconds };

  /** The shipment with its items included, as the sandbox calls answer. */
  async function shipmentDocument(clientRequest: Parameters<typeof baseOf>[0], id: number) {
    const {
      data: [shipment],
      included,
    } = await shipmentDocuments(db, shipmentById(db, clientRequest.client, id), true, baseOf(clientRequest));
    return { data: shipment, included };
  }

  route(app, 'sandboxGetClock', async (request) => ({ data: clockResource(await readClock(db, request.client.id)) }));

  // The advance is set in the database and this process's warehouse worker takes it on at once. A short one is done within the
  // wait and answers as it always did (200, ready); a longer one answers 202 while the worker goes on.
  route(app, 'sandboxAdvanceClock', async (request, reply) => {
    await beginAdvance(db, request.client.id, request.body.seconds);
    warehouse.wake(request.client.id);
    // The wait is for the worker, which takes turns of its own: other calls have this call's place meanwhile.
    stepOutOfFairShare(request);
    const clock = await warehouse.settle(request.client.id, config.sandboxAdvanceWaitMs);
    if (clock.advance) reply.code(202);
    return { data: clockResource(clock) };
  });

  route(app, 'sandboxShipOrder', async (request) =>
    shipmentDocument(request, await shipNow(db, services, request.client, request.params.id, warehouseOptions)),
  );

  route(app, 'sandboxAdvanceShipment', async (request) => {
    await advanceShipment(db, services, request.client, request.params.id, warehouseOptions);
    return shipmentDocument(request, request.params.id);
  });

  route(app, 'sandboxFailShipment', async (request) => {
    await failShipmentNow(db, services, request.client, request.params.id);
    return shipmentDocument(request, request.params.id);
  });

  route(app, 'sandboxReturnShipment', async (request) => {
    const items = await locating(bodyPointer, returnShipment(db, request.client, request.params.id, request.body.items));
    const base = baseOf(request);
    return { data: items.map((i) => returnItemResource(i, base)) };
  });
}
