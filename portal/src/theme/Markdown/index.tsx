// The descriptions of schemas, parameters and responses on the reference pages, rendered in the browser. The theme's
// version runs react-markdown with GitHub's extensions and re-parses every description as HTML (rehype-raw with parse5):
// with micromark and the mdast and hast tools it is the bulk of the reference's largest script, set up as that script
// loads and run once for each of the hundreds of descriptions on an operation page. The contract's descriptions at these
// levels are one paragraph of text, inline code and links, with no HTML, tables or fenced code (operations' own
// descriptions, which have them, are rendered from MDX at build time), so markdown-to-jsx, a single small parser that
// builds React elements directly, does the same with raw HTML left as text.
import type {ReactNode} from 'react';
import MarkdownToJsx from 'markdown-to-jsx/react';

const options = {forceBlock: true, disableParsingRawHTML: true};

export default function Markdown({children}: {children?: string}): ReactNode {
  return <MarkdownToJsx options={options}>{children ?? ''}</MarkdownToJsx>;
}
