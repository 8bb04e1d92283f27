// A screen's frame: its document title, its heading (which takes the focus after an in-app navigation, so keyboard and
// screen reader users start at the new page's top), and the actions beside the heading.
import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

export function Page({ title, lead, actions, children }: { title: string; lead?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { pathname, key } = useLocation();
  const firstLoad = key === 'default';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the heading takes the focus when the path changes, not on every render.
  useEffect(() => {
    if (!firstLoad) heading.current?.focus();
  }, [pathname]);
  return (
    <>
      <title>{`${title} · Sandbox console`}</title>
      <div className="page-heading">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="row">{actions}</div>}
      </div>
      {lead && <p className="lead">{lead}</p>}
      {children}
    </>
  );
}
