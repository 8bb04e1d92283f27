// The console's entry: colour mode first (before anything is drawn), then the data cache and the router.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ApiError } from './api/errors.ts';
import { currentSession, endSession, expiredNotice, subscribeToSession } from './api/session.ts';
import { router } from './routes.tsx';
import { applyColourMode } from './theme.ts';
import './theme.css';
import './app.css';

applyColourMode();

/** A 401 means the token expired or was revoked (a new password): back to sign in, saying why. */
function endSessionOnUnauthorized(error: unknown): void {
  if (error instanceof ApiError && error.status === 401 && currentSession()) endSession(expiredNotice);
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: endSessionOnUnauthorized }),
  mutationCache: new MutationCache({ onError: endSessionOnUnauthorized }),
  defaultOptions: {
    // The sandbox answers what it means: a 4xx will not turn out differently on a retry. A dropped connection might.
    queries: { retry: (failures, error) => !(error instanceof ApiError) && failures < 2 },
  },
});

// Each session starts with an empty cache: nothing read with one client's token is shown to the next.
subscribeToSession(() => queryClient.clear());

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
