// The client's clock (sandbox): the simulated now, and how far it is ahead of the real one.
import { clientNow } from '../../../modules/clients/service.ts';
import type { Client } from '../../../modules/clients/client.ts';

export function clockResource(client: Client) {
  return {
    type: 'clock',
    id: client.id,
    attributes: { now: clientNow(client).toISOString(), offsetSeconds: client.clockOffsetSeconds },
  };
}
