// Set-ups the module tests share: products with stock put on the shelf and orders placed, through the module services.
import { eq } from 'drizzle-orm';
import { schema } from '../../../src/platform/db/index.ts';
import type { Client } from '../../../src/modules/clients/client.ts';
import { pickLocation, putStock } from '../../../src/modules/inventory/service.ts';
import type { PlacedOrder } from '../../../src/modules/orders/repository.ts';
import { placeOrder } from '../../../src/modules/orders/service.ts';
import { createProduct, type ProductRow } from '../../../src/modules/products/service.ts';
import type { ModuleTestBed } from './modules.ts';

/** A product of the client with `quantity` on a pick location of its default warehouse (a correction booking). */
export async function productOnShelf(bed: ModuleTestBed, client: Client, sku: string, quantity: number): Promise<ProductRow> {
  const product = await createProduct(bed.db, client.id, { sku, name: sku });
  if (quantity > 0)
    await bed.db.transaction((tx) =>
      putStock(
        tx,
        client.id,
        pickLocation(client.defaultWarehouse, product.id),
        { productId: product.id, sku, quantity },
        { type: 'CORRECTION', correctionCode: 'ADJUSTMENT', remarks: 'test stock' },
        new Date(),
      ),
    );
  return product;
}

let orders = 0;
/** An order of the client for these items, delivered in Amsterdam. */
export async function placedOrder(bed: ModuleTestBed, client: Client, items: { sku: string; quantity: number }[]): Promise<PlacedOrder> {
  const [type] = await bed.db.select().from(schema.orderTypes).where(eq(schema.orderTypes.clientId, client.id)).limit(1);
  return placeOrder(bed.db, bed.services.orderPlacing, client.id, {
    externalOrderNumber: `MODULE-${++orders}-${client.id}`,
    locale: 'nl-NL',
    orderTypeId: type.id,
    deliveryAddress: { street1: 'Keizersgracht', houseNumber: '1', postcode: '1015 CJ', city: 'Amsterdam', countryCode: 'NL' },
    items,
  });
}
