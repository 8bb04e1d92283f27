// What the modules need that varies per app: the ports app.ts builds once (composeServices) and hands down.
import type { TokenCache } from './clients/token-cache.ts';
import type { OrderPlacing } from './orders/repository.ts';
import type { EventPayloads } from './webhooks/payloads.ts';

/**
 * Built once per app by app.ts (composeServices) and handed down: to the API plugins in AppContext, to the warehouse and
 * the CLI's commands as an argument. A module function takes the one port it needs as a parameter, never this object;
 * only the warehouse, which calls several areas, takes it whole. No module area imports this file.
 */
export interface ModuleServices {
  /** Tokens this app checked in the last tokenCacheSeconds: bearer auth reads it; revoke, password change and clock moves forget. */
  readonly tokenCache: TokenCache;
  /** The `data` of webhook events, made in the emitting transaction (implemented by representation/events.ts). */
  readonly eventPayloads: EventPayloads;
  /** The placing statement, rendered once with the further writes the representation gives it (representation/stored.ts). */
  readonly orderPlacing: OrderPlacing;
}
