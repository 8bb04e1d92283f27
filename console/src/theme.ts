// The colour mode, shared with the portal: the portal (Docusaurus) keeps the visitor's choice in localStorage under
// `theme`, so a choice made on either side holds on both. Without a choice the console is dark, like the portal
// (colorMode in portal/docusaurus.config.ts: dark by default, the system preference not followed). Following the
// system would not tell "no preference" from "light" anyway: browsers report light for a system that states none.
import { useCallback, useSyncExternalStore } from 'react';

export type ColourMode = 'light' | 'dark';

const storageKey = 'theme';

const chosenMode = (): ColourMode => (localStorage.getItem(storageKey) === 'light' ? 'light' : 'dark');

function apply(): void {
  document.documentElement.dataset.theme = chosenMode();
}

/** Follows a choice made in another tab (the portal's, or the console's). */
function subscribe(listener: () => void): () => void {
  const update = () => {
    apply();
    listener();
  };
  window.addEventListener('storage', update);
  return () => window.removeEventListener('storage', update);
}

/** Sets the mode on the page before the first render, so the console never shows in the other one. */
export const applyColourMode = apply;

export function useColourMode(): [ColourMode, () => void] {
  const mode = useSyncExternalStore(subscribe, chosenMode);
  const toggle = useCallback(() => {
    localStorage.setItem(storageKey, chosenMode() === 'dark' ? 'light' : 'dark');
    // A 'storage' event reaches other tabs only: this tab's subscribers are told the same way by hand.
    window.dispatchEvent(new StorageEvent('storage', { key: storageKey }));
  }, []);
  return [mode, toggle];
}
