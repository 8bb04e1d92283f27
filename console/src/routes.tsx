// The console's screens. Each area (requests, orders and shipments, inbound and stock, webhooks, clock, settings) is
// one lazily loaded chunk: the first load carries the frame and the sign-in screen only.
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loading } from './components/states.tsx';
import { NotFound, RequireSession, ScreenError } from './components/guards.tsx';
import { Shell } from './components/Shell.tsx';
import { SignIn } from './sign-in/SignIn.tsx';

/** A route whose screen is `name` of an area module, loaded when the route is first visited. */
function screen<Name extends string>(path: string, load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return { path, lazy: async () => ({ Component: (await load())[name] }) };
}

const requests = () => import('./requests/index.tsx');
const orders = () => import('./orders/index.tsx');
const inbound = () => import('./inbound/index.tsx');
const webhooks = () => import('./webhooks/index.tsx');
const clock = () => import('./clock/index.tsx');
const settings = () => import('./settings/index.tsx');

export const router = createBrowserRouter(
  [
    {
      path: '/',
      Component: Shell,
      HydrateFallback: () => <Loading what="the console" />,
      children: [
        { path: 'sign-in', Component: SignIn },
        {
          Component: RequireSession,
          ErrorBoundary: ScreenError,
          children: [
            { index: true, element: <Navigate to="/orders" replace /> },
            screen('requests', requests, 'RequestsScreen'),
            screen('requests/:id', requests, 'RequestScreen'),
            screen('orders', orders, 'OrdersScreen'),
            screen('orders/:id', orders, 'OrderScreen'),
            screen('shipments', orders, 'ShipmentsScreen'),
            screen('shipments/:id', orders, 'ShipmentScreen'),
            screen('inbound', inbound, 'InboundScreen'),
            screen('inbound/packing-slips/:id', inbound, 'PackingSlipScreen'),
            screen('inbound/inbounds/:id', inbound, 'InboundDetailScreen'),
            screen('stock', inbound, 'StockScreen'),
            screen('webhooks', webhooks, 'WebhooksScreen'),
            screen('webhooks/:id', webhooks, 'WebhookScreen'),
            screen('clock', clock, 'ClockScreen'),
            screen('settings', settings, 'SettingsScreen'),
            { path: '*', Component: NotFound },
          ],
        },
      ],
    },
  ],
  { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
);
