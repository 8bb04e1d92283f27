// Schema and example tabs that render only the selected tab: the theme renders the hidden example too, often the
// largest block of a reference page (a highlighted JSON body is a few thousand elements to hydrate).
import type {ComponentProps, ReactNode} from 'react';
import SchemaTabs from '@theme-original/SchemaTabs';

export default function LazySchemaTabs(props: ComponentProps<typeof SchemaTabs>): ReactNode {
  return <SchemaTabs lazy {...props} />;
}
