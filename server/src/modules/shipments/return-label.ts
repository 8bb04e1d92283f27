// Return labels: a printable PDF (pdf-lib) that sends a shipped parcel back to the warehouse it came from.
import { and, asc, eq } from 'drizzle-orm';
import { warehouses, type WarehouseCode } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Client } from '../clients/client.ts';
import { findShipment, itemsOf } from './service.ts';
import { domainError } from '../../platform/errors.ts';

const { shippingMethods, addresses, orders } = schema;

export interface ReturnLabel {
  pdf: Uint8Array;
  fileName: string;
  packageNumber: string;
  shipmentItemId: number | null;
  paperless: boolean;
}

/** The return parcel's number is fixed per shipment and method, so printing the label again gives the same parcel. */
const returnPackageNumber = (shipmentId: number, methodId: number) =>
  `3SRET${String(methodId).padStart(3, '0')}${String(shipmentId).padStart(9, '0')}`;

/** The label of a shipped shipment; the return method is the client's first one unless named. */
export async function returnLabel(db: Db, client: Client, shipmentId: number, returnMethodId?: number): Promise<ReturnLabel> {
  const shipment = await findShipment(db, client, shipmentId);
  if (shipment?.status !== 'SHIPPED') throw domainError('404', `Shipment ${shipmentId} not found among your shipped shipments.`);
  const methodConditions = [ownedBy(shippingMethods, client.id), eq(shippingMethods.kind, 'return')];
  if (returnMethodId !== undefined) methodConditions.push(eq(shippingMethods.id, returnMethodId));
  const [method] = await db
    .select()
    .from(shippingMethods)
    .where(and(...methodConditions))
    .orderBy(asc(shippingMethods.id))
    .limit(1);
  if (!method) throw domainError('404', `Return shipping method ${returnMethodId} not found.`);
  const [order] = await db.select().from(orders).where(eq(orders.id, shipment.orderId));
  const [sender] = await db.select().from(addresses).where(eq(addresses.id, order.deliveryAddressId));
  const [firstItem] = await itemsOf(db, [shipment.id]);
  const packageNumber = returnPackageNumber(shipment.id, method.id);
  const warehouse = warehouses[shipment.warehouseCode as WarehouseCode];

  // pdf-lib is loaded at the first label, not at start: importing it costs the server's start about 0.3 s.
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Return label ${packageNumber}`);
  const page = pdf.addPage([298, 420]); // A6 portrait, in points
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const lines: [string, number, boolean][] = [
    [`RETURN - ${method.carrier}`, 18, true],
    [method.name, 11, false],
    ['', 8, false],
    ['From', 9, true],
    [[sender?.firstName, sender?.prefix, sender?.lastName].filter(Boolean).join(' ') || '-', 11, false],
    [[sender?.street1, sender?.houseNumber, sender?.houseNumberExtension].filter(Boolean).join(' '), 11, false],
    [[sender?.postcode, sender?.city, sender?.countryCode].filter(Boolean).join(' '), 11, false],
    ['', 8, false],
    ['To', 9, true],
    [`Returns warehouse ${shipment.warehouseCode}`, 11, false],
    [`${warehouse?.place ?? shipment.warehouseCode}, ${warehouse?.country ?? ''}`, 11, false],
    ['', 8, false],
    [`Order ${order.externalOrderNumber}  -  shipment ${shipment.id}`, 9, false],
    [packageNumber, 20, true],
  ];
  let y = 390;
  for (const [text, size, isBold] of lines) {
    if (text) page.drawText(text, { x: 20, y, size, font: isBold ? bold : font });
    y -= size + 8;
  }
  return {
    pdf: await pdf.save(),
    fileName: `return-label-${shipment.id}.pdf`,
    packageNumber,
    shipmentItemId: firstItem?.id ?? null,
    paperless: method.paperless,
  };
}
