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
