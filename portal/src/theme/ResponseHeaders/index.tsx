// A response's headers, each an item of the list (the theme puts its bare divs straight into the ul).
import type {ReactNode} from 'react';
import SchemaItem from '@theme/SchemaItem';
import {getSchemaName} from 'docusaurus-theme-openapi-docs/lib/markdown/schema';

export default function ResponseHeaders({responseHeaders}: {responseHeaders?: Record<string, object>}): ReactNode {
  if (!responseHeaders) return null;
  return (
    <ul style={{marginLeft: '1rem'}}>
      {Object.entries(responseHeaders).map(([name, schema]) => (
        <li key={name} className="openapi-list-item">
          <SchemaItem name={name} collapsible={false} schemaName={getSchemaName(schema)} schema={schema} discriminator={false} children={null} />
        </li>
      ))}
    </ul>
  );
}
