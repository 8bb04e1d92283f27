// Regions that scroll inside the page (a body, a wide table): focusable, so that a keyboard can scroll them too.

/** A block of code or a body. */
export function Code({ label, children }: { label: string; children: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard.
    <section className="code" aria-label={label} tabIndex={0}>
      <pre>{children}</pre>
    </section>
  );
}
