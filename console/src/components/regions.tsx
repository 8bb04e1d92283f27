// Regions that scroll inside the page (a body, a wide table): focusable, so that a keyboard can scroll them too.
import type { ReactNode } from 'react';

/** A block of code or a body. */
export function Code({ label, children }: { label: string; children: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard.
    <section className="code" aria-label={label} tabIndex={0}>
      <pre>{children}</pre>
    </section>
  );
}

/** A table that scrolls sideways inside its own region on narrow screens, rather than widening the page. */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: as above, for a table wider than the screen.
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
