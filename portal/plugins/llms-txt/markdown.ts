// A guide's MDX source as plain Markdown for machine readers: no front matter or imports, JSX flattened to its content
// (a <TabItem> becomes a bold label line before its content), admonitions as quotes, links as absolute site paths.
// It parses with the remark extensions Docusaurus compiles the page with, so it reads the document the page shows.
import {admonitionTitleToDirectiveLabel, escapeMarkdownHeadingIds, unwrapMdxCodeBlocks} from '@docusaurus/utils';
import remarkComment from '@slorber/remark-comment';
import type {Expression, Program} from 'estree';
import type {Heading, Nodes, Paragraph, Parent, PhrasingContent, Root, RootContent} from 'mdast';
import type {ContainerDirective} from 'mdast-util-directive';
import type {MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import {toString as plainText} from 'mdast-util-to-string';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import {type PluggableList, unified} from 'unified';

/** Docusaurus' admonition keywords (`:::note` ...), with the label each gets when it has no title of its own. */
const admonitions: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
  caution: 'Caution',
  important: 'Important',
  success: 'Success',
  secondary: 'Note',
};

const phrasingTypes = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'inlineCode',
  'break',
  'link',
  'linkReference',
  'image',
  'imageReference',
  'footnoteReference',
  'html',
]);

export interface GuideSource {
  /** The page's URL path. */
  permalink: string;
  /** The title Docusaurus gave the page, for a document without an H1 of its own. */
  title: string;
}

export interface GuideMarkdown {
  /** The page's H1 as text. */
  title: string;
  /** The document, starting with its `# Title` line. */
  markdown: string;
}

/** The URL path of the page a link to a Markdown file (`../steps/checklist.md`) in this guide leads to, or null. */
export type MarkdownLinkResolver = (linkPathname: string) => string | null;

interface Context {
  source: string;
  page: GuideSource;
  resolveMarkdownLink: MarkdownLinkResolver;
  /** Inside <Tabs values={[...]}>: the label of each tab, by value. */
  tabLabels?: Map<string, string>;
}

/**
 * The guide as a machine reader wants it. `remarkPlugins`: the site's own remark plugins that run before Docusaurus'
 * (`beforeDefaultRemarkPlugins`), such as the one that writes the scenario catalogue into its page, so the Markdown holds
 * what they put on the page.
 */
export function guideMarkdown(
  page: GuideSource,
  fileContent: string,
  resolveMarkdownLink: MarkdownLinkResolver,
  remarkPlugins: PluggableList = [],
): GuideMarkdown {
  // The same rewrites Docusaurus applies before parsing: ```mdx-code-block fences, `:::note Title`, `## Heading {#id}`.
  const source = escapeMarkdownHeadingIds(admonitionTitleToDirectiveLabel(unwrapMdxCodeBlocks(fileContent), Object.keys(admonitions)));
  const tree = unified()
    .use(remarkParse)
    .use(remarkMdx)
    .use(remarkFrontmatter)
    .use(remarkDirective)
    .use(remarkGfm)
    .use(remarkComment)
    .parse(source);
  unified().use(remarkPlugins).runSync(tree);
  const children = asFlow(tree.children.flatMap((child) => rewrite(child, {source, page, resolveMarkdownLink}))) as RootContent[];
  const first = children[0];
  const heading: Heading =
    first?.type === 'heading' && first.depth === 1
      ? (children.shift() as Heading)
      : {type: 'heading', depth: 1, children: [{type: 'text', value: page.title}]};
  const root: Root = {type: 'root', children: [heading, ...children]};
  const markdown = unified()
    .use(remarkGfm, {tablePipeAlign: false})
    .use(remarkStringify, {bullet: '-', emphasis: '*', fences: true, listItemIndent: 'one', rule: '-'})
    .stringify(root);
  return {title: plainText(heading), markdown};
}

function rewrite(node: Nodes, context: Context): Nodes[] {
  switch (node.type) {
    case 'yaml':
    case 'mdxjsEsm':
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      return [];
    case 'mdxJsxFlowElement':
      return flattenElement(node, context);
    case 'mdxJsxTextElement':
      if (node.name === 'br') return [{type: 'break'}];
      return node.name === 'summary'
        ? [{type: 'strong', children: rewriteChildren(node, context) as PhrasingContent[]}]
        : rewriteChildren(node, context);
    case 'containerDirective':
      return admonitionOrContent(node, context);
    // Directives Docusaurus does not know stay the text they were written as (`12:30`, `a:b`), as on the page.
    case 'leafDirective':
      return [{type: 'paragraph', children: [sourceText(node, context)]}];
    case 'textDirective':
      return [sourceText(node, context)];
    case 'link':
      return [{...node, url: siteUrl(node.url, context), children: rewriteChildren(node, context) as PhrasingContent[]}];
    case 'definition':
    case 'image':
      return [{...node, url: siteUrl(node.url, context)}];
    case 'heading': {
      const children = rewriteChildren(node, context) as PhrasingContent[];
      const last = children.at(-1);
      if (last?.type === 'text') children[children.length - 1] = {...last, value: last.value.replace(/\s*\{#[^}]*\}\s*$/, '')};
      return [{...node, children}];
    }
  }
  return 'children' in node ? [{...node, children: rewriteChildren(node, context)} as Nodes] : [node];
}

function rewriteChildren(node: Parent, context: Context): Nodes[] {
  return node.children.flatMap((child) => rewrite(child, context));
}

/** A JSX block as its content: a tab's label becomes a bold line before it, a code block component a fenced block. */
function flattenElement(node: MdxJsxFlowElement, context: Context): Nodes[] {
  const inner = node.name === 'Tabs' ? {...context, tabLabels: tabLabels(node)} : context;
  const content = asFlow(node.children.flatMap((child) => rewrite(child, inner)));
  if (node.name === 'TabItem') {
    const value = attribute(node, 'value');
    const label = attribute(node, 'label') ?? (value && context.tabLabels?.get(value)) ?? value;
    return label ? [{type: 'paragraph', children: [{type: 'strong', children: [{type: 'text', value: label}]}]}, ...content] : content;
  }
  if (node.name === 'summary') {
    return [{type: 'paragraph', children: [{type: 'strong', children: [{type: 'text', value: plainText(content)}]}]}];
  }
  if (node.name === 'CodeBlock') {
    const code = node.children
      .map((child) => (child.type === 'mdxFlowExpression' ? (literalText(expressionOf(child.data?.estree)) ?? '') : plainText(child)))
      .join('');
    const title = attribute(node, 'title');
    return [{type: 'code', lang: attribute(node, 'language'), meta: title && `title="${title}"`, value: code.trim()}];
  }
  return content;
}

/** A string attribute of a JSX element. */
function attribute(node: MdxJsxFlowElement, name: string): string | undefined {
  const found = node.attributes.find((item) => item.type === 'mdxJsxAttribute' && item.name === name);
  return typeof found?.value === 'string' ? found.value : undefined;
}

/** The labels `<Tabs values={[{label: 'curl', value: 'curl'}, ...]}>` gives its tabs, by value. */
function tabLabels(node: MdxJsxFlowElement): Map<string, string> {
  const values = node.attributes.find((item) => item.type === 'mdxJsxAttribute' && item.name === 'values')?.value;
  const list = typeof values === 'object' ? expressionOf(values?.data?.estree) : undefined;
  const labels = new Map<string, string>();
  for (const tab of list?.type === 'ArrayExpression' ? list.elements : []) {
    if (tab?.type !== 'ObjectExpression') continue;
    const field = (name: string) => {
      const property = tab.properties.find((item) => item.type === 'Property' && item.key.type === 'Identifier' && item.key.name === name);
      return property?.type === 'Property' ? literalText(property.value as Expression) : undefined;
    };
    const [value, label] = [field('value'), field('label')];
    if (value && label) labels.set(value, label);
  }
  return labels;
}

/** The expression of a JSX expression (`{...}`) that is a single one. */
function expressionOf(program: Program | null | undefined): Expression | undefined {
  const statement = program?.body[0];
  return statement?.type === 'ExpressionStatement' ? statement.expression : undefined;
}

/** The string a literal expression stands for: `'curl'`, or a template without placeholders. */
function literalText(expression: Expression | undefined): string | undefined {
  if (expression?.type === 'Literal' && typeof expression.value === 'string') return expression.value;
  if (expression?.type === 'TemplateLiteral' && expression.quasis.length === 1) return expression.quasis[0].value.cooked ?? undefined;
  return undefined;
}

/** `:::note[Title]` as a quote that starts with **Note: Title**; other containers as their content. */
function admonitionOrContent(node: ContainerDirective, context: Context): Nodes[] {
  const [first, ...rest] = node.children;
  const hasTitle = first?.type === 'paragraph' && first.data?.directiveLabel === true;
  const content = asFlow((hasTitle ? rest : node.children).flatMap((child) => rewrite(child, context)));
  const label = admonitions[node.name];
  if (!label) return hasTitle ? [{type: 'paragraph', children: rewriteChildren(first, context) as PhrasingContent[]}, ...content] : content;
  const title: PhrasingContent[] = [
    {type: 'text', value: hasTitle ? `${label}: ` : label},
    ...(hasTitle ? (rewriteChildren(first, context) as PhrasingContent[]) : []),
  ];
  const labelLine: Paragraph = {type: 'paragraph', children: [{type: 'strong', children: title}]};
  return [{type: 'blockquote', children: [labelLine, ...(content as Paragraph[])]}];
}

/** Inline content left at block level by a flattened element, gathered into paragraphs. */
function asFlow(nodes: Nodes[]): Nodes[] {
  const flow: Nodes[] = [];
  let paragraph: Paragraph | undefined;
  for (const node of nodes) {
    if (!phrasingTypes.has(node.type)) {
      paragraph = undefined;
      flow.push(node);
    } else if (paragraph) {
      paragraph.children.push(node as PhrasingContent);
    } else if (node.type !== 'text' || node.value.trim()) {
      paragraph = {type: 'paragraph', children: [node as PhrasingContent]};
      flow.push(paragraph);
    }
  }
  return flow;
}

function sourceText(node: Nodes, context: Context): PhrasingContent {
  return {type: 'text', value: context.source.slice(node.position?.start.offset, node.position?.end.offset)};
}

/**
 * A link as an absolute site path, resolved the way the page resolves it: a link to a guide's file goes to that guide's
 * page, a relative URL is taken relative to the page, an anchor alone points into the page. Other sites stay as they are.
 */
function siteUrl(url: string, {page, resolveMarkdownLink}: Context): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//')) return url;
  const hash = url.indexOf('#');
  const target = hash < 0 ? url : url.slice(0, hash);
  const permalink = /\.mdx?$/.test(target) ? resolveMarkdownLink(target) : null;
  if (permalink) return permalink + (hash < 0 ? '' : url.slice(hash));
  const resolved = new URL(url, `http://site${page.permalink}`);
  return resolved.pathname + resolved.search + resolved.hash;
}
