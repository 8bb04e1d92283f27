// The stock a shipment booked out: the SHIPMENT stock mutations of its items, read once when the shipment has shipped.
import { useQuery } from '@tanstack/react-query';
import { readAll } from '../api/collections.ts';
import { useApi } from '../api/hooks.ts';
import { dateTime } from '../components/format.ts';
import { TableRegion } from '../components/regions.tsx';
import { Empty, Loaded } from '../components/states.tsx';
import type { Shipment, ShipmentItem } from './shipments.ts';

/** The day before `iso`: the mutations list filters by date, and a shipment's mutations are never older than its order. */
const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);

export function StockBooked({ shipments, items, since }: { shipments: Shipment[]; items: ShipmentItem[]; since: string }) {
  const api = useApi();
  const shipped = new Set(shipments.filter((shipment) => shipment.attributes.status === 'SHIPPED').map((shipment) => shipment.id));
  const itemIds = items.filter((item) => shipped.has(item.relationships.shipment.data?.id ?? 0)).map((item) => item.id);
  // Booked mutations never change: the query is keyed by the shipped items and read once for them.
  const mutations = useQuery({
    queryKey: ['stockBooked', itemIds],
    queryFn: () => readAll(api, '/v3/stockMutations', { 'filter[type][in]': 'SHIPMENT', 'filter[createdOn][gt]': dayBefore(since) }),
    enabled: itemIds.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!itemIds.length) return <Empty>Nothing booked yet: stock is booked out when a shipment ships.</Empty>;
  return (
    <Loaded query={mutations} what="the stock booked">
      {({ data }) => {
        const booked = data.filter((mutation) => itemIds.includes(mutation.relationships.shipmentItem.data?.id ?? 0));
        if (!booked.length) return <Empty>No stock mutations for these shipments (older than the 7 days the ledger keeps?).</Empty>;
        return (
          <TableRegion label="Stock booked">
            <table>
              <thead>
                <tr>
                  <th scope="col">Booked</th>
                  <th scope="col">Warehouse</th>
                  <th scope="col">Location</th>
                  <th scope="col">SKU</th>
                  <th scope="col" className="number">
                    Quantity
                  </th>
                  <th scope="col">Lot</th>
                </tr>
              </thead>
              <tbody>
                {booked.map(({ id, attributes: mutation }) => (
                  <tr key={id}>
                    <td>{dateTime(mutation.createdOn)}</td>
                    <td>{mutation.warehouseCode}</td>
                    <td>
                      {mutation.locationType} {mutation.locationCode}
                    </td>
                    <td>{mutation.sku}</td>
                    <td className="number">{mutation.quantity}</td>
                    <td>{mutation.lotNumber ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        );
      }}
    </Loaded>
  );
}
