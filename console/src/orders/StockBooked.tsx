// The stock a shipment booked out: the SHIPMENT stock mutations of its items, read once when the shipment has shipped.
import { useQuery } from '@tanstack/react-query';
import { readAll } from '../api/collections.ts';
import { useApi } from '../api/hooks.ts';
import { ClockTerm } from '../components/clocks.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { dateTime } from '../components/format.ts';
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
          <DataTable
            label="Stock booked"
            rows={booked}
            rowKey={(mutation) => mutation.id}
            columns={[
              {
                header: <ClockTerm clock="sandbox">Booked</ClockTerm>,
                cell: (mutation) => dateTime(mutation.attributes.createdOn),
              },
              { header: 'Warehouse', cell: (mutation) => mutation.attributes.warehouseCode },
              { header: 'Location', cell: ({ attributes: mutation }) => `${mutation.locationType} ${mutation.locationCode}` },
              { header: 'SKU', cell: (mutation) => mutation.attributes.sku, nowrap: true },
              { header: 'Quantity', cell: (mutation) => mutation.attributes.quantity, numeric: true },
              { header: 'Lot', cell: (mutation) => mutation.attributes.lotNumber ?? '—' },
            ]}
          />
        );
      }}
    </Loaded>
  );
}
