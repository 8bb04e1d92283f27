// The try-it of an operation page: the request form (server, authorization, parameters, body, send) and the answer.
// Loaded on demand by the ApiExplorer override, so that its modules stay off pages that do not show it.
import type {ReactNode} from 'react';
import Request from '@theme/ApiExplorer/Request';
import Response from '@theme/ApiExplorer/Response';

export default function TryIt({item}: {item: object}): ReactNode {
  return (
    <>
      <Request item={item} />
      <Response item={item} />
    </>
  );
}
