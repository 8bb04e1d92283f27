// Facts the console shares with the contract. The enumerations and reference data come from the contract's own modules,
// which import nothing else, so the bundle takes just these values; a value from a module that needs TypeBox is written
// here and checked against the contract's type, so the two cannot differ.
import type { sandboxLogHeader as contractLogHeader, sandboxRequestsPageSizeMax } from '../../../contract/src/sandbox-requests.ts';

export {
  inboundStatuses,
  packingSlipStatuses,
  returnConditions,
  shipmentStatuses,
  trackingStages,
  warehouseCodes,
  webhookEvents,
} from '../../../contract/src/enums.ts';
export { houseNumberRequiredCountries } from '../../../contract/src/reference.ts';

/** Sent on the console's reads so that its refreshes stay out of the integrator's request log. */
export const sandboxLogHeader: typeof contractLogHeader = { name: 'Sandbox-Log', skip: 'skip' };

/** The request log's largest page (each entry carries its bodies). */
export const requestLogPageSize: typeof sandboxRequestsPageSizeMax = 20;
