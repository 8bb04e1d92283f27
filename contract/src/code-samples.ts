// Copyable request samples (curl, JavaScript fetch, PHP, Python) for every operation of an OpenAPI document, as
// `x-codeSamples` (the vendor extension Redoc, Redocly and the portal's reference show beside the operation). They
// address the default sandbox origin; the portal replaces it with the origin that serves the page.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Schema {
  type?: string;
  format?: string;
  examples?: Json[];
  properties?: Record<string, Schema>;
}

interface MediaType {
  schema?: Schema;
  example?: Json;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, MediaType> };
  'x-codeSamples'?: CodeSample[];
}

export interface OpenApiDocument {
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
}

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The request a sample sends, derived once from the operation and written out per language. */
interface SampleRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?:
    | { kind: 'json'; mediaType: string; value: Json }
    | { kind: 'form'; fields: [string, string][] }
    | { kind: 'multipart'; fields: [string, string][]; files: [string, string][] };
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];
const tokenPlaceholder = '<your access token>';
/** Where `npm start` listens by default: the default of the documents' server variable and the samples' host. */
export const defaultSandboxOrigin = 'http://127.0.0.1:8080';

function examplePathValue(parameter: Parameter): string {
  const example = parameter.schema?.examples?.[0];
  return example === undefined ? '1' : String(example);
}

function requestOf(document: OpenApiDocument, path: string, method: string, operation: Operation): SampleRequest {
  const parameters = operation.parameters ?? [];
  const concretePath = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return parameter ? examplePathValue(parameter) : '1';
  });
  const security = operation.security ?? document.security ?? [];
  const headers: [string, string][] = [];
  if (security.some((requirement) => Object.keys(requirement).length > 0)) {
    headers.push(['Authorization', `Bearer ${tokenPlaceholder}`]);
  }
  const request: SampleRequest = { method: method.toUpperCase(), url: defaultSandboxOrigin + concretePath, headers };
  const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (mediaType?.includes('json')) {
    headers.push(['Accept', mediaType], ['Content-Type', mediaType]);
    request.body = { kind: 'json', mediaType, value: content.example ?? {} };
  } else if (mediaType === 'application/x-www-form-urlencoded') {
    const example = (content.example ?? {}) as Record<string, Json>;
    request.body = { kind: 'form', fields: Object.entries(example).map(([key, value]) => [key, String(value)]) };
  } else if (mediaType === 'multipart/form-data') {
    const properties = Object.entries(content.schema?.properties ?? {});
    request.body = {
      kind: 'multipart',
      fields: properties
        .filter(([, schema]) => schema.format !== 'binary')
        .map(([name, schema]) => [name, String(schema.examples?.[0] ?? '')]),
      files: properties.filter(([, schema]) => schema.format === 'binary').map(([name]) => [name, 'document.pdf']),
    };
  } else if (path.startsWith('/v3/')) {
    headers.push(['Accept', 'application/vnd.api+json']);
  }
  return request;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const pretty = (value: Json) => JSON.stringify(value, null, 2);
const indent = (text: string, prefix: string) => text.replace(/\n/g, `\n${prefix}`);

function curl({ method, url, headers, body }: SampleRequest): string {
  const lines = [`curl -X ${method} ${shellQuote(url)}`, ...headers.map(([name, value]) => `  -H ${shellQuote(`${name}: ${value}`)}`)];
  if (body?.kind === 'json') lines.push(`  -d ${shellQuote(pretty(body.value))}`);
  if (body?.kind === 'form') lines.push(...body.fields.map(([name, value]) => `  -d ${shellQuote(`${name}=${value}`)}`));
  if (body?.kind === 'multipart') {
    lines.push(...body.fields.map(([name, value]) => `  -F ${shellQuote(`${name}=${value}`)}`));
    lines.push(...body.files.map(([name, file]) => `  -F ${shellQuote(`${name}=@${file};type=application/pdf`)}`));
  }
  return lines.join(' \\\n');
}

function javascript({ method, url, headers, body }: SampleRequest): string {
  const lines: string[] = [];
  const init: string[] = [`  method: '${method}',`];
  const headerLines = headers.map(([name, value]) => `    '${name}': '${value}',`);
  if (body?.kind === 'form') {
    headerLines.push(`    'Content-Type': 'application/x-www-form-urlencoded',`);
    init.push(`  body: new URLSearchParams(${indent(pretty(Object.fromEntries(body.fields)), '  ')}),`);
  }
  if (body?.kind === 'json') init.push(`  body: JSON.stringify(${indent(pretty(body.value), '  ')}),`);
  if (body?.kind === 'multipart') {
    lines.push('// pdfBytes: the contents of your PDF file, e.g. from fs.readFile or a file input', 'const form = new FormData();');
    lines.push(...body.fields.map(([name, value]) => `form.append('${name}', ${JSON.stringify(value)});`));
    lines.push(...body.files.map(([name, file]) => `form.append('${name}', new Blob([pdfBytes], {type: 'application/pdf'}), '${file}');`));
    init.push('  body: form,');
  }
  if (headerLines.length > 0) init.splice(1, 0, '  headers: {', ...headerLines, '  },');
  lines.push(`const response = await fetch('${url}', {`, ...init, '});', 'console.log(response.status, await response.json());');
  return lines.join('\n');
}

function php({ method, url, headers, body }: SampleRequest): string {
  const options = [`    CURLOPT_CUSTOMREQUEST => '${method}',`, '    CURLOPT_RETURNTRANSFER => true,'];
  const headerLines = headers.map(([name, value]) => `        '${name}: ${value}',`);
  if (headerLines.length > 0) options.push('    CURLOPT_HTTPHEADER => [', ...headerLines, '    ],');
  if (body?.kind === 'json') options.push(`    CURLOPT_POSTFIELDS => <<<'JSON'\n${pretty(body.value)}\nJSON,`);
  if (body?.kind === 'form') {
    options.push(
      `    CURLOPT_POSTFIELDS => http_build_query([${body.fields.map(([name, value]) => `'${name}' => '${value}'`).join(', ')}]),`,
    );
  }
  if (body?.kind === 'multipart') {
    const fields = [
      ...body.fields.map(([name, value]) => `        '${name}' => ${JSON.stringify(value)},`),
      ...body.files.map(([name, file]) => `        '${name}' => new CURLFile('${file}', 'application/pdf'),`),
    ];
    options.push('    CURLOPT_POSTFIELDS => [', ...fields, '    ],');
  }
  return [
    `$curl = curl_init('${url}');`,
    'curl_setopt_array($curl, [',
    ...options,
    ']);',
    '$response = curl_exec($curl);',
    'echo curl_getinfo($curl, CURLINFO_HTTP_CODE), PHP_EOL, $response;',
  ].join('\n');
}

function python({ method, url, headers, body }: SampleRequest): string {
  const args = [`    '${url}',`];
  if (headers.length > 0) args.push(`    headers={${headers.map(([name, value]) => `'${name}': '${value}'`).join(', ')}},`);
  if (body?.kind === 'json') args.push(`    data=json.dumps(${indent(pretty(body.value), '    ')}),`);
  if (body?.kind === 'form') args.push(`    data={${body.fields.map(([name, value]) => `'${name}': '${value}'`).join(', ')}},`);
  if (body?.kind === 'multipart') {
    args.push(`    data={${body.fields.map(([name, value]) => `'${name}': ${JSON.stringify(value)}`).join(', ')}},`);
    args.push(
      `    files={${body.files.map(([name, file]) => `'${name}': ('${file}', open('${file}', 'rb'), 'application/pdf')`).join(', ')}},`,
    );
  }
  const imports = body?.kind === 'json' ? 'import json\nimport requests' : 'import requests';
  return [imports, '', `response = requests.${method.toLowerCase()}(`, ...args, ')', 'print(response.status_code, response.json())'].join(
    '\n',
  );
}

export function withCodeSamples<T extends OpenApiDocument>(document: T): T {
  const copy = structuredClone(document);
  for (const [path, item] of Object.entries(copy.paths)) {
    for (const method of methods) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const request = requestOf(copy, path, method, operation);
      operation['x-codeSamples'] = [
        { lang: 'bash', label: 'curl', source: curl(request) },
        { lang: 'javascript', label: 'JavaScript (fetch)', source: javascript(request) },
        { lang: 'php', label: 'PHP (curl)', source: php(request) },
        { lang: 'python', label: 'Python (requests)', source: python(request) },
      ];
    }
  }
  return copy;
}
