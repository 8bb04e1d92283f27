// An operation's responses, one tab per status code, rendering only the selected one: the theme renders every code's
// schemas and examples up front, most of an operation page's hydration time.
import type {ComponentProps, ReactNode} from 'react';
import ApiTabs from '@theme-original/ApiTabs';

export default function LazyApiTabs(props: ComponentProps<typeof ApiTabs>): ReactNode {
  return <ApiTabs lazy {...props} />;
}
