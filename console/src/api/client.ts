// The console's API client: the typed client generated from the contract, on the page's own origin, with the token of
// the tab's session.
import { createShopApiClient, type ShopApiClient } from '@shopapi/client';
import { sandboxLogHeader } from './contract.ts';

type Middleware = Parameters<ShopApiClient['use']>[0];

/**
 * Every read the console makes is a refresh of what it shows, not a call of the integrator's: it asks to stay out of
 * the request log, so polling never pushes the integrator's own calls out. Writes (ship, advance, create a webhook)
 * are the integrator's actions and are logged.
 */
const readsOutOfTheLog: Middleware = {
  onRequest({ request }) {
    if (request.method === 'GET' || request.method === 'HEAD') request.headers.set(sandboxLogHeader.name, sandboxLogHeader.skip);
    return request;
  },
};

/** A client that sends `token` (none for POST /token). The console never keeps a password, so it never renews a token. */
export function consoleClient(token?: string): ShopApiClient {
  const api = createShopApiClient({ baseUrl: window.location.origin, token });
  api.use(readsOutOfTheLog);
  return api;
}
