// Sandbox controls over the simulated warehouse: the client's clock, shipping an order now, one shipment's steps, returns.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { shipmentById } from '../../modules/shipments/service.ts';
import { advanceClock, type WarehouseOptions } from '../../warehouse/simulator.ts';
import { advanceShipment, failShipmentNow, returnShipment, shipNow } from '../../warehouse/sandbox.ts';
import { clockResource, returnItemResource, shipmentDocuments } from '../v3/representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { bodyPointer, locating } from '../v3/problem-pointers.ts';

export function sandboxRoutes(app: FastifyInstance, { db, config, baseOf }: AppContext) {
  const warehouse: WarehouseOptions = { stepSeconds: config.sandboxStepSeconds };

  /** The shipment with its items included, as the sandbox calls answer. */
  async function shipmentDocument(clientRequest: Parameters<typeof baseOf>[0], id: number) {
    const {
      data: [shipment],
      included,
    } = await shipmentDocuments(db, shipmentById(db, clientRequest.client, id), true, baseOf(clientRequest));
    return { data: shipment, included };
  }

  // The token's check read the client, its clock offset included, from the database in this request (the route takes no
  // cached client).
  route(app, 'sandboxGetClock', async (request) => ({ data: clockResource(request.client) }));

  route(app, 'sandboxAdvanceClock', async (request) => {
    const client = await advanceClock(db, request.client.id, request.body.seconds, warehouse);
    return { data: clockResource(client) };
  });

  route(app, 'sandboxShipOrder', async (request) =>
    shipmentDocument(request, await shipNow(db, request.client, request.params.id, warehouse)),
  );

  route(app, 'sandboxAdvanceShipment', async (request) => {
    await advanceShipment(db, request.client, request.params.id, warehouse);
    return shipmentDocument(request, request.params.id);
  });

  route(app, 'sandboxFailShipment', async (request) => {
    await failShipmentNow(db, request.client, request.params.id);
    return shipmentDocument(request, request.params.id);
  });

  route(app, 'sandboxReturnShipment', async (request) => {
    const items = await locating(bodyPointer, returnShipment(db, request.client, request.params.id, request.body.items));
    const base = baseOf(request);
    return { data: items.map((i) => returnItemResource(i, base)) };
  });
}
