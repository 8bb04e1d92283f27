// The colour mode, shared with the portal: the portal (Docusaurus) keeps the visitor's choice in localStorage under
// `theme` ('light' or 'dark'; no entry when the choice is "system"), so a choice made on either side holds on both.
// The rule is the specification's, as in the portal: a stored choice wins, else the system's light or dark, else dark
// (a browser that states no preference matches neither query and gets dark).
import { useCallback, useSyncExternalStore } from 'react';

export type ColourMode = 'light' | 'dark';

const storageKey = 'theme';
const systemLight = '(prefers-color-scheme: light)';

function currentMode(): ColourMode {
  const stored = localStorage.getItem(storageKey);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia(systemLight).matches ? 'light' : 'dark';
}

function apply(): void {
  document.documentElement.dataset.theme = currentMode();
}

/** Follows a choice made in another tab (the portal's, or the console's) and the system's changes. */
function subscribe(listener: () => void): () => void {
  const update = () => {
    apply();
    listener();
  };
  const system = window.matchMedia(systemLight);
  window.addEventListener('storage', update);
  system.addEventListener('change', update);
  return () => {
    window.removeEventListener('storage', update);
    system.removeEventListener('change', update);
  };
}

/** Sets the mode on the page before the first render, so the console never shows in the other one. */
export const applyColourMode = apply;

export function useColourMode(): [ColourMode, () => void] {
  const mode = useSyncExternalStore(subscribe, currentMode);
  const toggle = useCallback(() => {
    localStorage.setItem(storageKey, currentMode() === 'dark' ? 'light' : 'dark');
    // A 'storage' event reaches other tabs only: this tab's subscribers are told the same way by hand.
    window.dispatchEvent(new StorageEvent('storage', { key: storageKey }));
  }, []);
  return [mode, toggle];
}
