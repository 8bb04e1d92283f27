// The try-it form of an operation page, made to work as sent against the sandbox that serves the portal:
// - requests go to this page's origin (the documents' server URL is the variable {origin});
// - a body example that creates an order gets a fresh externalOrderNumber on each visit and after each created order;
// - a form field with a default value starts filled in with it (the token form's grant_type=password);
// - the access token from "Request an access token" is kept for the session, so every operation page starts with it.
import {useEffect, useMemo, useState, type ReactNode} from 'react';
import Request from '@theme-original/ApiExplorer/Request';
import {setServerVariable} from '@theme/ApiExplorer/Server/slice';
import {useTypedDispatch, useTypedSelector} from '@theme/ApiItem/hooks';

interface Schema {
  default?: unknown;
  example?: unknown;
  properties?: Record<string, Schema>;
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
}

interface Item {
  method: string;
  path: string;
  requestBody?: {content?: Record<string, MediaType>};
}

interface State {
  server: {value?: {variables?: Record<string, {default: string}>}};
  response: {value?: string; code?: number};
}

/** The security scheme of the documents (components.securitySchemes): the theme keeps its token under this key. */
const bearerScheme = 'bearerAuth';

function withFreshOrderNumbers(value: unknown, suffix: string): unknown {
  if (Array.isArray(value)) return value.map((entry) => withFreshOrderNumbers(entry, suffix));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) =>
      key === 'externalOrderNumber' && typeof entry === 'string' ? [key, `${entry}-${suffix}`] : [key, withFreshOrderNumbers(entry, suffix)],
    ),
  );
}

/**
 * A form body's fields (form-encoded, multipart) as the try-it fills them in at first: with their example, which the
 * theme reads from each field's schema, and failing that with their default, which it shows ("Default value") but
 * leaves out: the token form would otherwise send grant_type empty and be refused.
 */
function withDefaultsAsExamples(schema: Schema | undefined): Schema | undefined {
  if (!schema?.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, field]) => [
      name,
      field.example === undefined && field.default !== undefined ? {...field, example: field.default} : field,
    ]),
  );
  return {...schema, properties};
}

/**
 * The body the form starts with is the operation's example (the theme would otherwise start from one it derives from
 * the schema); a POST's externalOrderNumber gets a suffix, as the number must be unique per client.
 */
function withSendableExample(item: Item, suffix: string): Item {
  const content = item.requestBody?.content;
  if (!content) return item;
  const sendable = Object.fromEntries(
    Object.entries(content).map(([mediaType, media]) => {
      if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/.test(mediaType)) {
        return [mediaType, {...media, schema: withDefaultsAsExamples(media.schema)}];
      }
      if (media.example === undefined) return [mediaType, media];
      const example = item.method === 'post' ? withFreshOrderNumbers(media.example, suffix) : media.example;
      return [mediaType, {...media, example, schema: {...media.schema, examples: [example]}}];
    }),
  );
  return {...item, requestBody: {...item.requestBody, content: sendable}};
}

export default function RequestForThisSandbox(props: {item: Item}): ReactNode {
  const dispatch = useTypedDispatch();
  const server = useTypedSelector((state: State) => state.server.value);
  const response = useTypedSelector((state: State) => state.response);
  const [sent, setSent] = useState(0);

  useEffect(() => {
    const origin = server?.variables?.origin;
    if (origin && origin.default !== window.location.origin) {
      dispatch(setServerVariable(JSON.stringify({key: 'origin', value: window.location.origin})));
    }
  }, [server, dispatch]);

  useEffect(() => {
    if (response.code === 201) setSent((count) => count + 1);
    if (response.code !== 200 || props.item.path !== '/token' || !response.value) return;
    try {
      const token = (JSON.parse(response.value) as {access_token?: string}).access_token;
      if (token) sessionStorage.setItem(bearerScheme, JSON.stringify({token}));
    } catch {
      // Not a token answer: nothing to keep.
    }
  }, [response.value, response.code, props.item.path]);

  const item = useMemo(() => withSendableExample(props.item, `${Date.now().toString(36)}${sent}`), [props.item, sent]);
  // A new key after each created resource starts the form again from a fresh example.
  return <Request key={sent} {...props} item={item} />;
}
