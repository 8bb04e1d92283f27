// One tag's list of operations on a reference index (reference/operation-index.ts writes it as HTML at build time).
// React takes the list as it was rendered and never walks it: written as MDX, its seventy-odd entries were some six hundred
// elements to hydrate and as many Link components, each watching its own visibility from the start, on the page a phone
// opens the reference with. A click on one of its links still moves within the site, as a Link does; a click that opens
// a new tab or window is left to the browser.
import {useEffect, useRef, type ReactNode} from 'react';
import {useHistory} from '@docusaurus/router';

export default function OperationIndex({html}: {html: string}): ReactNode {
  const list = useRef<HTMLDivElement>(null);
  const history = useHistory();
  useEffect(() => {
    const element = list.current;
    if (!element) return undefined;
    const navigate = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element).closest('a');
      if (!link || link.origin !== window.location.origin || link.target) return;
      event.preventDefault();
      history.push(`${link.pathname}${link.search}${link.hash}`);
    };
    element.addEventListener('click', navigate);
    return () => element.removeEventListener('click', navigate);
  }, [history]);
  return <div ref={list} className="operation-index" dangerouslySetInnerHTML={{__html: html}} />;
}
