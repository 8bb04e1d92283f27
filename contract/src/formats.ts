// Shared value formats of the spec (section 3, "Shared formats"), as JSON Schema via TypeBox.
import { Type, type TSchema } from '@sinclair/typebox';
import { limits } from './limits.ts';
import { warehouseCodes } from './enums.ts';

/** Printable characters only, not starting or ending with a space (the length is bounded where it is used). */
export const printableTrimmed = '^[^\\s\\x00-\\x1F\\x7F](?:[^\\x00-\\x1F\\x7F]*[^\\s\\x00-\\x1F\\x7F])?$';

export const Sku = Type.String({
  minLength: limits.skuMin,
  maxLength: limits.skuMax,
  pattern: printableTrimmed,
  description: 'Stock keeping unit: 2 to 80 printable characters, no leading or trailing space.',
  examples: ['SKU-TSHIRT-M'],
});
export const Barcode = Type.String({
  minLength: limits.skuMin,
  maxLength: limits.skuMax,
  pattern: printableTrimmed,
  description: 'Barcode (EAN, UPC...): 2 to 80 printable characters, no leading or trailing space.',
  examples: ['8712345678906'],
});
export const Locale = Type.String({
  pattern: '^[a-zA-Z]{2,3}-[a-zA-Z]{2,3}$',
  description: 'Full locale: language and country, e.g. en-GB.',
  examples: ['nl-NL'],
});
export const CountryCode = Type.String({
  pattern: '^[A-Z]{2}(-[A-Z0-9]{2,3})?$',
  description: 'Country code: 2 capital letters with an optional suffix of 2 or 3 letters or digits.',
  examples: ['NL'],
});
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'Currency code: 3 capital letters.', examples: ['EUR'] });
export const PhoneNumber = Type.String({
  maxLength: limits.phoneNumberMax,
  pattern: '^[0-9 +()\\-.\\\\/]*$',
  description: 'Phone number: at most 32 characters; digits, spaces and + ( ) - . \\ /.',
});
export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['jane@example.com'] });
export const DateOnly = Type.String({ format: 'date', examples: ['2026-11-21'] });
export const DateTime = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00Z'] });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** A comma-separated, URL-encoded list filter (values unique, at least one). */
export function ListFilter(description: string, examples: string[] = []) {
  return Type.String({ minLength: 1, description: `${description} Comma-separated, unique values.`, examples });
}

export const WarehouseCodeSchema = Type.Union(
  warehouseCodes.map((c) => Type.Literal(c)),
  { description: 'Warehouse code: NR, NN, GN, BW, DD or FP.' },
);
