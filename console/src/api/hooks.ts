// The client of the signed-in session, and writes that refresh every screen after them.
import type { ShopApiClient } from '@shopapi/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { consoleClient } from './client.ts';
import { useSession } from './session.ts';

export function useApi(): ShopApiClient {
  const token = useSession()?.token;
  return useMemo(() => consoleClient(token), [token]);
}

/**
 * A write (ship, advance, receive, ...). One write moves many things at once (a shipment, its order, stock, webhook
 * deliveries), so afterwards every query on screen is read again rather than a guessed few.
 */
export function useAction<Variables = void, Result = unknown>(run: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries() });
}
