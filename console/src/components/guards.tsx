// Screens around the areas: the redirect to sign in, a path that is no screen, and a screen that failed to load.
import { Link, Navigate, Outlet, useLocation, useRouteError } from 'react-router';
import { useSession } from '../api/session.ts';
import { Page } from './Page.tsx';

/** The areas need a session; without one, sign in and come back to the same screen. */
export function RequireSession() {
  const session = useSession();
  const { pathname, search } = useLocation();
  if (!session) return <Navigate to="/sign-in" replace state={{ from: pathname + search }} />;
  return <Outlet />;
}

export function NotFound() {
  return (
    <Page title="Not found">
      <p>
        The console has no such screen. Start from <Link to="/orders">your orders</Link> or <Link to="/requests">your requests</Link>.
      </p>
    </Page>
  );
}

/** A screen's code did not load (the sandbox restarted with a new build, or the connection dropped). */
export function ScreenError() {
  const error = useRouteError();
  return (
    <Page title="This screen failed">
      <div role="alert" className="notice error">
        <p>{error instanceof Error ? error.message : 'The screen could not be shown.'}</p>
        <p>Reload the page to try again.</p>
      </div>
    </Page>
  );
}
