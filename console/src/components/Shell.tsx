// The frame of every screen: skip link, header with the navigation and the user's tools, and the main landmark. The header
// is one row on a wide screen, two on a narrower one (the navigation under the brand and tools), and on a phone one row
// with a Menu button that opens the navigation and tools (app.css lays out each).
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
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

/** The portal's switch: an icon of the mode it switches to, named in full for screen readers. */
function ColourModeToggle() {
  const [mode, toggle] = useColourMode();
  const other = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="secondary icon"
      onClick={toggle}
      aria-label={`Switch to ${other} mode`}
      title={`Switch to ${other} mode`}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        {other === 'light' ? (
          <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="12" r="4.5" />
            <path d="M12 1.5v2.5M12 20v2.5M1.5 12H4M20 12h2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8" />
          </g>
        ) : (
          <path fill="currentColor" d="M20.5 14.6A8.5 8.5 0 0 1 9.4 3.5a8.5 8.5 0 1 0 11.1 11.1Z" />
        )}
      </svg>
    </button>
  );
}

export function Shell() {
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The menu stays open on the screen it was opened on: following one of its links closes it.
  const [openOn, setOpenOn] = useState<string>();
  const menuOpen = openOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape closes an open menu and puts the focus back on its button.
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(undefined);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);
  const signOut = () => {
    endSession();
    navigate('/sign-in');
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header" data-menu={session ? (menuOpen ? 'open' : 'closed') : 'none'}>
        <a className="brand" href="/">
          Shop API <span className="muted">sandbox console</span>
        </a>
        {session && (
          <button
            ref={menuButton}
            type="button"
            className="secondary menu-button"
            aria-expanded={menuOpen}
            aria-controls="console-menu"
            onClick={() => setOpenOn(menuOpen ? undefined : pathname)}
          >
            Menu
          </button>
        )}
        <div id="console-menu" className="site-menu">
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
                  <span className="signed-in-as">Signed in as </span>
                  <span className="username" title={session.username}>
                    {session.username}
                  </span>
                </span>
                <button type="button" className="secondary" onClick={signOut}>
                  Sign out
                </button>
              </>
            )}
            <ColourModeToggle />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
