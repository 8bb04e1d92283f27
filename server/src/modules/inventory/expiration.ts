// Expiration status of perishable stock as the client's clock passes the product's margins: OK → WARNING (within the
// warning days) → OVERDUE (within the margin: no longer shipped) → EXPIRED. Overdue and expired goods change quality,
// with QUALITY mutations, so stock levels count them as overdue or expired instead of stock.
import type { expirationStatuses } from '@shopapi/contract';
import type { Db } from '../../platform/db/index.ts';
import { insertStockMutations, lockClientWarehouse, lockPerishableStock, setExpiration } from './repository.ts';

type ExpirationStatus = (typeof expirationStatuses)[number];

const rank: Record<ExpirationStatus, number> = { OK: 0, WARNING: 1, OVERDUE: 2, EXPIRED: 3 };

function statusOn(today: string, expirationDate: string, marginDays: number, warningDays: number): ExpirationStatus {
  const daysLeft = Math.round((Date.parse(expirationDate) - Date.parse(today)) / 86_400_000);
  if (daysLeft <= 0) return 'EXPIRED';
  if (daysLeft <= marginDays) return 'OVERDUE';
  if (daysLeft <= warningDays) return 'WARNING';
  return 'OK';
}

export async function updateExpirationStatuses(db: Db, clientId: number, now: Date): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    await lockClientWarehouse(tx, clientId);
    const rows = await lockPerishableStock(tx, clientId);
    for (const { stock: row, margin, warning } of rows) {
      const status = statusOn(today, row.expirationDate!, margin ?? 0, warning ?? margin ?? 0);
      // The status only moves forward: a clock never runs back.
      if (rank[status] <= rank[row.expirationStatus as ExpirationStatus]) continue;
      const quality = status === 'OVERDUE' || status === 'EXPIRED' ? status : row.quality;
      await setExpiration(tx, row.id, { expirationStatus: status, quality, modifiedOn: now });
      if (quality === row.quality) continue;
      const base = {
        clientId,
        productId: row.productId,
        sku: row.sku,
        type: 'QUALITY',
        createdOn: now,
        warehouseCode: row.warehouseCode,
        locationType: row.locationType,
        locationCode: row.locationCode,
        status: row.status,
        expirationDate: row.expirationDate,
        lotNumber: row.lotNumber,
        remarks: `Expiration status ${status}.`,
      };
      await insertStockMutations(tx, [
        { ...base, quantity: -row.quantity, quality: row.quality },
        { ...base, quantity: row.quantity, quality },
      ]);
    }
  });
}
