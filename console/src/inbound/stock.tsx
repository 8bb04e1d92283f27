// Stock levels per product and warehouse, and the newest bookings of the stock ledger.
import { useQuery } from '@tanstack/react-query';
import { readAll } from '../api/collections.ts';
import { useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { dateTime } from '../components/format.ts';
import { TableRegion } from '../components/regions.tsx';
import { Empty, Loaded } from '../components/states.tsx';

const levelColumns = ['stock', 'free', 'available', 'economic', 'expected', 'outbound', 'physical', 'unavailable'] as const;

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
            <TableRegion label="Stock levels">
              <table>
                <thead>
                  <tr>
                    <th scope="col">SKU</th>
                    <th scope="col">Warehouse</th>
                    {levelColumns.map((column) => (
                      <th key={column} scope="col" className="number">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={`${row.sku} ${row.warehouse}`}>
                      <td>{row.sku}</td>
                      <td>{row.warehouse}</td>
                      {levelColumns.map((column) => (
                        <td key={column} className="number">
                          {row[column]}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
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
          <TableRegion label="Recent stock mutations">
            <table>
              <caption className="visually-hidden">The newest {recentMutations} stock mutations, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Booked</th>
                  <th scope="col">Type</th>
                  <th scope="col">Warehouse</th>
                  <th scope="col">Location</th>
                  <th scope="col">SKU</th>
                  <th scope="col" className="number">
                    Quantity
                  </th>
                  <th scope="col">Quality</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {data.slice(0, recentMutations).map(({ id, attributes: mutation }) => (
                  <tr key={id}>
                    <td>{dateTime(mutation.createdOn)}</td>
                    <td>{mutation.type}</td>
                    <td>{mutation.warehouseCode}</td>
                    <td>
                      {mutation.locationType} {mutation.locationCode}
                    </td>
                    <td>{mutation.sku}</td>
                    <td className="number">{mutation.quantity}</td>
                    <td>{mutation.quality}</td>
                    <td>{[mutation.correctionCode, mutation.remarks].filter(Boolean).join(': ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        ) : (
          <Empty>No stock mutations in the last 7 days.</Empty>
        )
      }
    </Loaded>
  );
}
