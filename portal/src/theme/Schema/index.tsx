// A request or response body's schema as the item of the ul the theme puts it in (its properties are divs, which a
// list may not hold directly: Lighthouse's "list" audit).
import type {ComponentProps, ReactNode} from 'react';
import Schema from '@theme-original/Schema';

export default function SchemaListItem(props: ComponentProps<typeof Schema>): ReactNode {
  return (
    <li className="openapi-list-item">
      <Schema {...props} />
    </li>
  );
}
