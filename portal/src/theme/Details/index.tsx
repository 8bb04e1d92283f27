// The reference's collapsed sections (schema properties, parameters, response headers) render their content when
// first opened. Docusaurus' Details always renders it, hidden; on an operation page that is thousands of elements
// (two thirds of the page) to hydrate and then render again when the theme's tabs remount. The guides' details keep
// Docusaurus' behaviour.
import {useState, type ComponentProps, type MouseEvent, type ReactNode} from 'react';
import Details from '@theme-original/Details';

/** The class docusaurus-theme-openapi-docs gives every Details it renders. */
const referenceDetails = /\bopenapi-markdown__details\b/;

export default function DetailsRenderedWhenOpened({children, ...props}: ComponentProps<typeof Details>): ReactNode {
  const inReference = referenceDetails.test(props.className ?? '');
  const [opened, setOpened] = useState(!inReference || Boolean(props.open));
  // Capture runs before Docusaurus' own click handler expands the section, so the content is there to measure.
  const openOnOwnSummary = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as Element).closest('summary')?.parentElement === event.currentTarget) setOpened(true);
  };
  return (
    <Details {...props} onClickCapture={inReference && !opened ? openOnOwnSummary : undefined}>
      {opened ? children : null}
    </Details>
  );
}
