// @docusaurus/theme-common/lib/hooks/useWindowSize.js (3.10) with the first measurement in a transition (./index.ts
// says why).
import {startTransition, useEffect, useState} from 'react';

type WindowSize = 'desktop' | 'mobile' | 'ssr';

/** Infima's breakpoint, as theme-common's. */
const desktopBreakpointDefault = 996;

export function useWindowSize({desktopBreakpoint = desktopBreakpointDefault}: {desktopBreakpoint?: number} = {}): WindowSize {
  // The server's value while hydrating, so that the page hydrates as it was rendered.
  const [windowSize, setWindowSize] = useState<WindowSize>('ssr');
  useEffect(() => {
    const update = () => setWindowSize(window.innerWidth > desktopBreakpoint ? 'desktop' : 'mobile');
    startTransition(update);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [desktopBreakpoint]);
  return windowSize;
}
