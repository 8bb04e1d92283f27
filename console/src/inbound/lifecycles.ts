// The lifecycles of inbound goods as timeline steps, with the times the resources record.
import type { ItemOf } from '@shopapi/client';
import type { IncludedOf } from '../api/collections.ts';
import { inboundStatuses, packingSlipStatuses } from '../api/contract.ts';
import type { Step } from '../components/Timeline.tsx';

export type PackingSlip = ItemOf<'/v3/inboundPackingSlips'>;
export type PackingSlipItem = IncludedOf<'/v3/inboundPackingSlips'>;
export type Inbound = ItemOf<'/v3/inbounds'>;

/** EXPECTED → IN_PROGRESS → CHECKING → CHECKED → COMPLETED. */
export const packingSlipSteps = ({ attributes }: PackingSlip): Step[] =>
  packingSlipStatuses.map((name) => ({ name, at: name === 'COMPLETED' ? attributes.completedOn : undefined }));

/** PROCESSING → CHECKING → CHECKED → COMPLETED (2 hours after CHECKED, on the client's clock). */
export function inboundSteps({ attributes }: Inbound): Step[] {
  const at: Partial<Record<string, string | null>> = {
    PROCESSING: attributes.createdOn,
    CHECKING: attributes.checkingOn,
    COMPLETED: attributes.completedOn,
  };
  return inboundStatuses.map((name) => ({ name, at: at[name] }));
}
