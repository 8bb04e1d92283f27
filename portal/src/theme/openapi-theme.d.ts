// The few modules of docusaurus-theme-openapi-docs the portal's overrides use (the theme ships no declarations for them).
declare module '@theme-original/ApiExplorer/Request' {
  import type {ReactNode} from 'react';
  export default function Request(props: {item: unknown}): ReactNode;
}

declare module '@theme/ApiExplorer/Server/slice' {
  import type {UnknownAction} from '@reduxjs/toolkit';
  export function setServerVariable(payload: string): UnknownAction;
}

declare module '@theme/ApiItem/hooks' {
  import type {Dispatch, UnknownAction} from '@reduxjs/toolkit';
  export function useTypedDispatch(): Dispatch<UnknownAction>;
  export function useTypedSelector<S, T>(selector: (state: S) => T): T;
}

declare module '@theme/ApiExplorer/Request' {
  import type {ReactNode} from 'react';
  export default function Request(props: {item: unknown}): ReactNode;
}

declare module '@theme/ApiExplorer/Response' {
  import type {ReactNode} from 'react';
  export default function Response(props: {item: unknown}): ReactNode;
}

declare module '@theme/SkeletonLoader' {
  import type {ReactNode} from 'react';
  export default function SkeletonLoader(props: {size?: 'sm' | 'md' | 'lg'}): ReactNode;
}

declare module '@theme-original/ParamsItem' {
  import type {ReactNode} from 'react';
  export default function ParamsItem(props: {className: string; param: object}): ReactNode;
}

declare module '@theme-original/Schema' {
  import type {ReactNode} from 'react';
  export default function Schema(props: {schema: object; schemaType: 'request' | 'response'; schemaPath?: string}): ReactNode;
}

declare module '@theme/SchemaItem' {
  import type {ReactNode} from 'react';
  export default function SchemaItem(props: {
    name: string;
    collapsible: boolean;
    schemaName: string;
    schema: object;
    discriminator: boolean;
    children: ReactNode;
  }): ReactNode;
}

declare module '@theme-original/ApiTabs' {
  import type {ReactNode} from 'react';
  export default function ApiTabs(props: {label?: string; id?: string; lazy?: boolean; children: ReactNode}): ReactNode;
}

declare module '@theme-original/SchemaTabs' {
  import type {ReactNode} from 'react';
  export default function SchemaTabs(props: {className?: string; groupId?: string; lazy?: boolean; children: ReactNode}): ReactNode;
}
