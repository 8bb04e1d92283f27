// A parameter of an operation as an item of the parameter list: the theme renders it as a bare div inside a ul,
// which screen readers and Lighthouse's "list" audit reject.
import type {ComponentProps, ReactNode} from 'react';
import ParamsItem from '@theme-original/ParamsItem';

export default function ParamsListItem(props: ComponentProps<typeof ParamsItem>): ReactNode {
  return (
    <li className="openapi-list-item">
      <ParamsItem {...props} />
    </li>
  );
}
