// Code blocks highlighted with Prism loaded by the first block a page shows, not by every page: the MDX components
// import the code block, so Prism (a dozen grammars, about 100 kB that build their tables as they load) came with every
// guide, code or not. A server-rendered block keeps its highlighted HTML while Prism loads (React leaves a suspended
// boundary's server HTML in place); a block rendered in the browser shows its plain text in the same box meanwhile.
import {lazy, Suspense, type ReactNode} from 'react';
import ElementContent from '@theme/CodeBlock/Content/Element';
import type {Props} from '@theme/CodeBlock/Content/String';

const HighlightedContent = lazy(() => import('@theme-original/CodeBlock/Content/String'));

export default function CodeBlockStringContent(props: Props): ReactNode {
  return (
    <Suspense fallback={<ElementContent {...props} />}>
      <HighlightedContent {...props} />
    </Suspense>
  );
}
