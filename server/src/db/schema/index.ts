export * from './clients.ts';
export * from './orders.ts';
export * from './shipments.ts';
export * from './products.ts';
export * from './inventory.ts';
export * from './inbound.ts';
export * from './returns.ts';
export * from './webhooks.ts';
