// The goods on a line that carries stock (a shipment's item, an inbound's item): the same four columns wherever listed.
import type { Column } from './DataTable.tsx';

interface Goods {
  attributes: { sku: string; quantity: number; lotNumber: string | null; expirationDate: string | null };
}

export const goodsColumns: Column<Goods>[] = [
  { header: 'SKU', cell: (item) => item.attributes.sku, nowrap: true },
  { header: 'Quantity', cell: (item) => item.attributes.quantity, numeric: true },
  { header: 'Lot', cell: (item) => item.attributes.lotNumber ?? '—' },
  { header: 'Expires', cell: (item) => item.attributes.expirationDate ?? '—', nowrap: true },
];
