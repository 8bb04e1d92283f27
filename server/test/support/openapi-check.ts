// Checks a live answer against the generated OpenAPI document: the status must be documented for the operation,
// and the body must validate against the documented schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi, operations } from '@shopapi/contract';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, discriminator: true }));

interface Route {
  method: string;
  pattern: RegExp;
  path: string;
  responses: Record<string, any>;
}

const routes: Route[] = [];
const seen = new Set<string>();
for (const version of ['v3', 'v2'] as const) {
  const doc = buildOpenApi(version);
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, any>)) {
      const key = `${method} ${path}`.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i');
      routes.push({ method: method.toUpperCase(), pattern, path, responses: operation.responses });
    }
  }
}

// Aliases (the unprefixed and /v2/ paths of v2 calls) answer exactly like the documented path.
for (const op of operations) {
  const documented = routes.find((r) => r.method === op.method && r.path === op.path);
  for (const alias of op.aliases ?? []) {
    if (!documented) continue;
    routes.push({ ...documented, pattern: new RegExp(`^${alias.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i') });
  }
}

const validators = new Map<object, ReturnType<typeof ajv.compile>>();
function validatorFor(schema: object) {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Operations the test suite has called, for the coverage test of the contract. */
export const calledOperations = new Set<string>();

export function checkAgainstOpenApi(method: string, url: string, status: number, contentType: string, body: unknown) {
  const path = url.split('?')[0];
  const route = routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
  if (!route) {
    if (status === 404 || status === 405) return;
    throw new Error(`${method} ${path} answered ${status} but is not in the OpenAPI documents`);
  }
  calledOperations.add(`${route.method} ${route.path}`);
  const documented = route.responses[String(status)];
  if (!documented)
    throw new Error(
      `${method} ${path} answered ${status}, which its OpenAPI operation does not document (documented: ${Object.keys(route.responses).join(', ')})`,
    );
  if (!documented.content) return;
  const mediaType = contentType.split(';')[0].trim();
  const content = documented.content[mediaType];
  if (!content)
    throw new Error(`${method} ${path} answered ${status} as ${mediaType}; documented: ${Object.keys(documented.content).join(', ')}`);
  if (!content.schema) return;
  const validate = validatorFor(content.schema);
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${status} does not match its OpenAPI schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 800)}`,
    );
  }
}
