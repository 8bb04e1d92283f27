// v2 shipments: thin handlers over the v2 sync view of shipments (domain/shipments/sync.ts).
import type { FastifyInstance } from 'fastify';
import { v2Messages } from '@shopapi/contract';
import { searchShipments, shipmentsInTransit, syncShipments, unsyncedShipments, type SyncList } from '../../modules/shipments/sync.ts';
import { v2ShipmentList, v2ShipmentSearchResults, v2TrackTraceItems } from './mapping/shipments.ts';
import { notFound, ok, v2Route } from './envelope.ts';
import type { AppContext } from '../shared/context.ts';

export function v2ShipmentRoutes(app: FastifyInstance, { db }: AppContext) {
  const list = (listName: SyncList) => async (request: { client: Parameters<typeof unsyncedShipments>[1]; body?: unknown }) => {
    const orderTypes = (request.body as { orderTypes?: number[] } | undefined)?.orderTypes;
    const result = await v2ShipmentList(db, await unsyncedShipments(db, request.client, listName, orderTypes));
    return ok(v2Messages.shipmentsFound(result.length), result);
  };
  v2Route(app, 'getShipmentsV2', list('shipped'));
  v2Route(app, 'getLabeledShipmentsV2', list('labeled'));
  v2Route(app, 'getShipmentsByOrderTypeV2', list('shipped'));
  v2Route(app, 'getLabeledShipmentsByOrderTypeV2', list('labeled'));

  const sync = (listName: SyncList) => async (request: { client: Parameters<typeof syncShipments>[1]; body: { ids: number[] } }) => {
    await syncShipments(db, request.client, listName, request.body.ids);
    return ok(v2Messages.requestProcessed, null);
  };
  v2Route(app, 'syncShipmentsV2', sync('shipped'));
  v2Route(app, 'syncLabeledShipmentsV2', sync('labeled'));

  v2Route(app, 'searchShipmentsV2', async (request) => {
    const { id, externalOrderNumber, shippingDate } = request.body;
    if (!id && !externalOrderNumber && !shippingDate)
      request.warnings.add('default', 'no id, externalOrderNumber or shippingDate: the shipments of the past 24 hours');
    const result = await v2ShipmentSearchResults(db, await searchShipments(db, request.client, request.body));
    // A search by key that misses is a NOK (clients tell new from known by it); a search by date is a list, maybe empty.
    if (!result.length && (id || externalOrderNumber)) return notFound(v2Messages.shipmentNotFound);
    return ok(v2Messages.shipmentsFound(result.length), result);
  });

  v2Route(app, 'getTrackTraceStatusV2', async (request) =>
    ok(v2Messages.trackTraceFound, await v2TrackTraceItems(db, await shipmentsInTransit(db, request.client))),
  );
}
