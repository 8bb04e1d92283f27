// How often each kind of screen refreshes while the tab is visible (TanStack Query stops polling a hidden tab).
// The costs these intervals make are measured in console/README.md.
export const refresh = {
  /** The request log: calls should appear while the integrator watches. */
  requests: 2_000,
  /** One order, shipment, packing slip or webhook, whose state the warehouse moves on. */
  detail: 3_000,
  /** Lists of orders, shipments, inbound goods and webhooks. */
  list: 5_000,
  /** The clock runs on in the browser between reads; a read corrects for advances made elsewhere. */
  clock: 30_000,
  /** Stock levels count against the integrator's 500 requests per hour on that endpoint: once a minute is 60 of them. */
  stockLevels: 60_000,
} as const;
