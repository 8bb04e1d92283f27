// The frame of every screen: skip link, header with the navigation and the user's tools, and the main landmark.
import { NavLink, Outlet, useNavigate } from 'react-router';
import { endSession, useSession } from '../api/session.ts';
import { useColourMode } from '../theme.ts';

const areas = [
  ['/requests', 'Requests'],
  ['/orders', 'Orders'],
  ['/shipments', 'Shipments'],
  ['/inbound', 'Inbound'],
  ['/stock', 'Stock'],
  ['/webhooks', 'Webhooks'],
  ['/clock', 'Clock'],
  ['/settings', 'Settings'],
] as const;

function ColourModeToggle() {
  const [mode, toggle] = useColourMode();
  const other = mode === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" className="secondary" onClick={toggle} aria-label={`Switch to ${other} mode`}>
      {other === 'light' ? 'Light mode' : 'Dark mode'}
    </button>
  );
}

export function Shell() {
  const session = useSession();
  const navigate = useNavigate();
  const signOut = () => {
    endSession();
    navigate('/sign-in');
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <a className="brand" href="/">
          Shop API <span className="muted">sandbox console</span>
        </a>
        {session && (
          <nav className="site-nav" aria-label="Console">
            <ul>
              {areas.map(([path, name]) => (
                <li key={path}>
                  <NavLink to={path}>{name}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="header-tools">
          {session && (
            <>
              <span className="who">
                <span className="wide-only">Signed in as </span>
                {session.username}
              </span>
              <button type="button" className="secondary" onClick={signOut}>
                Sign out
              </button>
            </>
          )}
          <ColourModeToggle />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
