// @docusaurus/core/lib/client/preload as the app's start gets it: one task later (./index.ts says why).
import preload from '@docusaurus/core/lib/client/preload';

export default function preloadInATaskOfItsOwn(pathname: string): Promise<unknown> {
  return new Promise((resolve) => setTimeout(resolve)).then(() => preload(pathname));
}
