// Validators compiled from the contract's schemas: bodies are checked strictly (no type coercion, every problem reported);
// query strings and path parameters coerce, since they arrive as text.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Problem } from '../../platform/errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// multipleOfPrecision: prices like 9.95 are not an exact binary multiple of 0.01; compare to 9 decimals.
const bodyAjv = addFormats(
  new Ajv({
    multipleOfPrecision: 9,
    allErrors: true,
    discriminator: true,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  }),
);
// verbose: an error carries its schema, so an unknown query parameter is answered with the list of the supported ones.
const textAjv = addFormats(
  new Ajv({
    multipleOfPrecision: 9,
    allErrors: true,
    discriminator: true,
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    verbose: true,
  }),
);

/**
 * A validator compiled at its first use, not at start: the contract has about 150 schemas, and compiling them all (the
 * sandbox settings' alone is large) cost every `npm start` about a second of CPU before the first answer. A route that
 * is never called never compiles. Fastify and the callers read `errors` from the function they hold, so it is passed on.
 */
function compiledAtFirstUse(ajv: Ajv, schema: object) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compiledAtFirstUse(httpPart === 'body' ? bodyAjv : textAjv, schema as object);

/** A strict body validator for documents that arrive other than as the request body (the multipart data part). */
export const compileBodyValidator = (schema: object) => compiledAtFirstUse(bodyAjv, schema);

/** An unknown query parameter (v3 refuses them rather than ignore them): its name and the parameters the call supports. */
function unknownParameter(e: ErrorObject): string {
  const name = (e.params as { additionalProperty: string }).additionalProperty;
  const supported = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  return `Unknown query parameter ${name}; ${supported.length ? `supported: ${supported.join(', ')}` : 'this call takes no query parameters'}.`;
}

/** Turns ajv's errors into API error items: one per place, union noise folded. */
export function validationItems(errors: ErrorObject[], context: string): Problem[] {
  const byPlace = new Map<string, Problem>();
  for (const e of errors) {
    const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : '';
    const path = `${e.instancePath}${missing}${extra}`;
    let detail: string;
    if (e.keyword === 'required') detail = `${path.split('/').pop()} is required.`;
    else if (e.keyword === 'additionalProperties' && context === 'querystring') detail = unknownParameter(e);
    else if (e.keyword === 'additionalProperties') detail = `${path.split('/').pop()} is not allowed here.`;
    else if (e.keyword === 'const') detail = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}.`;
    else detail = `${e.message ?? 'is invalid'}.`;
    if (!missing && !extra) detail = `${path || context} ${detail}`.trim();
    if (byPlace.has(path) && (e.keyword === 'anyOf' || e.keyword === 'type' || e.keyword === 'const')) continue;
    const item: Problem = { code: '400', detail };
    if (context === 'body') item.pointer = path || '/';
    else item.parameter = path.replace(/^\//, '') || context;
    byPlace.set(path, item);
  }
  return [...byPlace.values()];
}
