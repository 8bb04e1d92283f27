// Stock levels per product and warehouse, and the newest bookings of the stock ledger.
import { useQuery } from '@tanstack/react-query';
import { readAll } from '../api/collections.ts';
import { useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { ClockTerm } from '../components/clocks.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { dateTime } from '../components/format.ts';
import { Empty, Loaded } from '../components/states.tsx';

/** The levels of a product in a warehouse, under the API's names, capitalised as column names. */
const levelColumns = ['stock', 'free', 'available', 'economic', 'expected', 'outbound', 'physical', 'unavailable'] as const;
const capitalised = (name: string) => name[0].toUpperCase() + name.slice(1);

/** How many of the newest ledger bookings the screen lists. */
const recentMutations = 100;

export function StockLevels() {
  const api = useApi();
  const levels = useQuery({
    queryKey: ['stockLevels'],
    queryFn: () => readAll(api, '/v3/stockLevels'),
    refetchInterval: refresh.stockLevels,
  });
  return (
    <>
      <p className="muted">
        Stock levels count against your 500 calls per hour on this endpoint, so this table refreshes once a minute.{' '}
        <button type="button" className="link" onClick={() => levels.refetch()} disabled={levels.isFetching}>
          Refresh now
        </button>
      </p>
      <Loaded query={levels} what="your stock levels">
        {({ data }) => {
          const rows = data.flatMap((product) => product.attributes.levels.map((level) => ({ sku: product.attributes.sku, ...level })));
          if (!rows.length) return <Empty>No stock yet: receive a packing slip to put goods in a warehouse.</Empty>;
          return (
            <DataTable
              label="Stock levels"
              rows={rows}
              rowKey={(row) => `${row.sku} ${row.warehouse}`}
              columns={[
                { header: 'SKU', cell: (row) => row.sku, nowrap: true },
                { header: 'Warehouse', cell: (row) => row.warehouse },
                ...levelColumns.map((column) => ({
                  header: capitalised(column),
                  cell: (row: (typeof rows)[number]) => row[column],
                  numeric: true,
                })),
              ]}
            />
          );
        }}
      </Loaded>
    </>
  );
}

export function StockMutations() {
  const api = useApi();
  const mutations = useQuery({
    queryKey: ['stockMutations'],
    queryFn: () => readAll(api, '/v3/stockMutations'),
    refetchInterval: refresh.list,
  });
  return (
    <Loaded query={mutations} what="the stock ledger">
      {({ data }) =>
        data.length ? (
          <DataTable
            label="Recent stock mutations"
            caption={`The newest ${recentMutations} stock mutations, newest first`}
            rows={data.slice(0, recentMutations)}
            rowKey={(mutation) => mutation.id}
            columns={[
              { header: <ClockTerm clock="sandbox">Booked</ClockTerm>, cell: (mutation) => dateTime(mutation.attributes.createdOn) },
              { header: 'Type', cell: (mutation) => mutation.attributes.type },
              { header: 'Warehouse', cell: (mutation) => mutation.attributes.warehouseCode },
              { header: 'Location', cell: ({ attributes: mutation }) => `${mutation.locationType} ${mutation.locationCode}` },
              { header: 'SKU', cell: (mutation) => mutation.attributes.sku, nowrap: true },
              { header: 'Quantity', cell: (mutation) => mutation.attributes.quantity, numeric: true },
              { header: 'Quality', cell: (mutation) => mutation.attributes.quality },
              {
                header: 'Why',
                cell: ({ attributes: mutation }) => [mutation.correctionCode, mutation.remarks].filter(Boolean).join(': ') || '—',
                wrap: true,
              },
            ]}
          />
        ) : (
          <Empty>No stock mutations in the last 7 days.</Empty>
        )
      }
    </Loaded>
  );
}
