// The descriptions of schemas, parameters and responses on the reference pages, rendered in the browser as CommonMark.
// The theme's version also runs GitHub's extensions and re-parses every description as HTML (rehype-raw with parse5,
// over 100 kB, and a second parse of each of the hundreds of descriptions on an operation page). The contract's
// descriptions at these levels are one paragraph of text and inline code, with no HTML, tables or fenced code
// (operations' own descriptions, which have them, are rendered from MDX at build time), so neither is needed.
import type {ReactNode} from 'react';
import ReactMarkdown from 'react-markdown';

export default function Markdown({children}: {children?: string}): ReactNode {
  return <ReactMarkdown>{children}</ReactMarkdown>;
}
