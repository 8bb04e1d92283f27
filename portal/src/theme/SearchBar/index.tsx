// The site search box, with the search plugin's bar loaded once the reader reaches for it (pointer, touch, focus, its
// mod+K shortcut) or arrives from a search result (?_highlight= terms to mark). That bar brings lunr, mark.js and the
// autocomplete and sets them up as it loads: in every page's navbar, it cost each page that start-up work. Until then
// the box is the bar's own markup and styles, so nothing moves when the bar takes its place with what was typed.
import {useEffect, useLayoutEffect, useRef, useState, type ComponentType, type ReactNode} from 'react';
import clsx from 'clsx';
import {translate} from '@docusaurus/Translate';
import useIsBrowser from '@docusaurus/useIsBrowser';
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css';

type SearchBarComponent = ComponentType<Record<string, unknown>>;

/** The plugin's bar once loaded: later pages (client-side navigation, no hydration) show it straight away. */
let loadedBar: SearchBarComponent | undefined;

const isMac = () => /mac/i.test(navigator.userAgent);

export default function SearchBar(props: Record<string, unknown>): ReactNode {
  const [Bar, setBar] = useState(() => loadedBar);
  const isBrowser = useIsBrowser();
  const input = useRef<HTMLInputElement>(null);
  // Where the box sits and what the reader did in it, for the bar that replaces it.
  const handover = useRef({parent: null as HTMLElement | null, focused: false, value: ''});

  /** Loads the bar; `focus` when the reader asked for the box without focusing it (the shortcut). */
  const load = (focus: boolean) => {
    if (focus) input.current?.focus();
    void import('@theme-original/SearchBar').then((module: {default: SearchBarComponent}) => {
      if (!input.current) return;
      handover.current = {
        parent: input.current.closest('.navbar__search')?.parentElement ?? null,
        focused: document.activeElement === input.current,
        value: input.current.value,
      };
      loadedBar = module.default;
      setBar(() => module.default);
    });
  };

  useEffect(() => {
    if (Bar) return undefined;
    if (new URLSearchParams(window.location.search).has('_highlight')) load(false);
    const shortcut = (event: KeyboardEvent) => {
      if (event.key?.toLowerCase() !== 'k' || !(isMac() ? event.metaKey : event.ctrlKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      load(true);
    };
    document.addEventListener('keydown', shortcut);
    return () => document.removeEventListener('keydown', shortcut);
  }, [Bar]);

  // Before the bar's own effects run: it reads the input's value and focus when it mounts.
  useLayoutEffect(() => {
    const {parent, focused, value} = handover.current;
    const barInput = Bar && parent?.querySelector<HTMLInputElement>('input.navbar__search-input');
    if (!barInput) return;
    if (value) barInput.value = value;
    if (focused) barInput.focus();
  }, [Bar]);

  if (Bar) return <Bar {...props} />;
  return (
    <div className={clsx('navbar__search', styles.searchBarContainer)} dir="ltr">
      <svg aria-hidden="true" className={styles.searchIcon} focusable="false" viewBox="0 0 16 16">
        <path
          fill="currentColor"
          d="M6.02945 10.20327a4.17382 4.17382 0 1 1 4.17382-4.17382 4.15609 4.15609 0 0 1-4.17382 4.17382Zm9.69195 4.2199-4.8225-4.82338A5.88021 5.88021 0 0 0 12.058 6.02856 6.00467 6.00467 0 1 0 9.59979 10.8989l4.82338 4.82338a.89729.89729 0 0 0 1.29912 0 .89749.89749 0 0 0-.00087-1.29909Z"
        />
      </svg>
      <input
        placeholder={translate({id: 'theme.SearchBar.label', message: 'Search'})}
        aria-label="Search"
        className={`navbar__search-input ${styles.searchInput}`}
        ref={input}
        onPointerEnter={() => load(false)}
        onTouchStart={() => load(false)}
        onFocus={() => load(false)}
      />
      {isBrowser && (
        <div className={styles.searchHintContainer}>
          {[isMac() ? '⌘' : 'ctrl', 'K'].map((hint) => (
            <kbd key={hint} className={styles.searchHint}>
              {hint}
            </kbd>
          ))}
        </div>
      )}
    </div>
  );
}
