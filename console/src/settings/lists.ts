// The settings lists the editor shows, their columns, and the conversion between the editor's rows and the API's.
import type { V3Operations } from '@shopapi/client';

type Settings = V3Operations['getSandboxSettings']['responses'][200]['content']['application/vnd.api+json']['data']['attributes'];
export type SettingsInput =
  V3Operations['updateSandboxSettings']['requestBody']['content']['application/vnd.api+json']['data']['attributes'];

/** paymentMethods is read-only (always the single method 1), so it is not edited. */
export type ListName = Exclude<keyof Settings, 'paymentMethods'>;

export interface Column {
  field: string;
  label: string;
  kind: 'text' | 'boolean' | 'warehouses';
}

/** A row being edited: the API's fields (warehouses as text, "NR, BW"), its id when it exists, and a key for React. */
export type Row = Record<string, string | boolean | number | undefined> & { key: string; id?: number };

const code: Column = { field: 'code', label: 'Code', kind: 'text' };
const name: Column = { field: 'name', label: 'Name', kind: 'text' };
const carrier: Column = { field: 'carrier', label: 'Carrier', kind: 'text' };

export const lists: { name: ListName; title: string; columns: Column[] }[] = [
  {
    name: 'orderTypes',
    title: 'Order types',
    columns: [code, name, { field: 'allowPartialDelivery', label: 'Partial delivery', kind: 'boolean' }],
  },
  {
    name: 'mainShippingMethods',
    title: 'Shipping methods',
    columns: [code, name, carrier, { field: 'warehouses', label: 'Warehouses', kind: 'warehouses' }],
  },
  {
    name: 'returnShippingMethods',
    title: 'Return shipping methods',
    columns: [code, name, carrier, { field: 'paperless', label: 'Paperless', kind: 'boolean' }],
  },
  { name: 'languages', title: 'Languages', columns: [code, name] },
  { name: 'countries', title: 'Countries', columns: [code, name] },
  { name: 'returnReasons', title: 'Return reasons', columns: [code, name] },
];

export type Draft = Record<ListName, Row[]>;

export function draftOf(settings: Settings): Draft {
  const draft = {} as Draft;
  for (const { name: list } of lists) {
    draft[list] = settings[list].map((entry): Row => {
      const { warehouses, ...fields } = entry as typeof entry & { warehouses?: string[] };
      return { ...fields, key: `id-${entry.id}`, ...(warehouses && { warehouses: warehouses.join(', ') }) };
    });
  }
  return draft;
}

export function blankRow(list: (typeof lists)[number], key: string): Row {
  const row: Row = { key };
  for (const column of list.columns) row[column.field] = column.kind === 'boolean' ? false : '';
  return row;
}

export function inputOf(draft: Draft): SettingsInput {
  const input: Record<string, unknown> = {};
  for (const { name: list } of lists) {
    input[list] = draft[list].map(({ key: _key, ...row }) =>
      typeof row.warehouses === 'string'
        ? {
            ...row,
            warehouses: row.warehouses
              .split(/[\s,]+/)
              .filter(Boolean)
              .map((warehouse) => warehouse.toUpperCase()),
          }
        : row,
    );
  }
  // The server validates every list (codes, lengths, warehouses) and points at the row it refuses.
  return input as SettingsInput;
}
