// Lenient v2 requests: existing v2 integrations send JSON or form bodies with keys in any case and numbers as text.
// Before validation this plugin brings every v2 body and query to the contract's camelCase names and types,
// then validates the body itself so failures answer in the v2 words (section 8 of the v2 spec).
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject } from 'ajv';
import { limits, operationById, purchaseOrderOperationIds, v2BadRequest, v2Messages, type Operation } from '@shopapi/contract';
import { compileBodyValidator, validationItems } from './validation.ts';
import { capProblems, moreProblems } from './errors.ts';

/** Markers the JSON parser leaves for the hook, which answers in the v2 format. */
const EMPTY = Object.freeze({ marker: 'empty' });
const MALFORMED = Object.freeze({ marker: 'malformed' });

const isV2 = (request: FastifyRequest) => request.routeOptions.config?.api === 'v2';

/** Keys compare without case, underscores or dashes: ExternalOrderNumber, externalOrderNumber, all_products. */
const keyOf = (name: string) => name.replace(/[_-]/g, '').toLowerCase();

type Schema = TSchema & { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; patternProperties?: Record<string, Schema> };

const typesOf = (schema: Schema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.const !== undefined) return [typeof schema.const];
  return schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
};

const branch = (schema: Schema, type: string): Schema | undefined =>
  schema.anyOf ? schema.anyOf.map((s) => branch(s, type)).find(Boolean) : typesOf(schema).includes(type) ? schema : undefined;

/** Brings one value to the names and types its schema describes; what cannot be brought is left for validation to report. */
export function normalise(value: unknown, schema: Schema): unknown {
  const types = typesOf(schema);
  if (value === null || value === undefined) return value;
  const objectSchema = branch(schema, 'object');
  const arraySchema = branch(schema, 'array');
  if (Array.isArray(value)) {
    if (arraySchema?.items) return value.map((v) => normalise(v, arraySchema.items!));
    // A body that is just the list, e.g. [1, 2] for {ids: [1, 2]}.
    const listProperty = objectSchema?.properties && Object.entries(objectSchema.properties).filter(([, p]) => branch(p, 'array'));
    if (listProperty?.length === 1) return { [listProperty[0][0]]: normalise(value, listProperty[0][1]) };
    return value;
  }
  if (typeof value === 'object') {
    if (arraySchema?.items) {
      // {"0": a, "1": b} for a list, as some clients encode one. An index past the list's bound stays an object, which
      // validation refuses: one key must not stand for a list longer than the contract allows.
      const entries = Object.entries(value as Record<string, unknown>);
      const bound = (arraySchema as { maxItems?: number }).maxItems ?? limits.formArrayIndexMax;
      if (entries.every(([k]) => /^\d{1,9}$/.test(k) && Number(k) < bound)) {
        return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => normalise(v, arraySchema.items!));
      }
    }
    if (!objectSchema?.properties) return value;
    const names = new Map(Object.keys(objectSchema.properties).map((name) => [keyOf(name), name]));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const name = names.get(keyOf(key));
      // Unknown keys (deprecated fields old clients still send) are dropped, not refused.
      if (name) out[name] = normalise(v, objectSchema.properties[name]);
    }
    return out;
  }
  if (arraySchema?.items && !types.includes(typeof value)) return [normalise(value, arraySchema.items)];
  if (typeof value === 'string') {
    const text = value.trim();
    // A number too large for a double (400 digits) stays text, so validation refuses it instead of storing Infinity.
    if ((types.includes('integer') || types.includes('number')) && !types.includes('string') && /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
    if (types.includes('boolean') && !types.includes('string') && /^(true|false|1|0)$/i.test(text)) return /^(true|1)$/i.test(text);
    if (text === '' && types.includes('null') && !types.includes('string')) return null;
    return value;
  }
  if ((typeof value === 'number' || typeof value === 'boolean') && types.includes('string') && !types.includes(typeof value)) return String(value);
  return value;
}

const validators = new Map<string, ReturnType<typeof compileBodyValidator>>();
function validatorOf(op: Operation) {
  let validate = validators.get(op.operationId);
  if (!validate) {
    validate = compileBodyValidator(op.body as object);
    validators.set(op.operationId, validate);
  }
  return validate;
}

/** Field problems in words a v2 integrator recognises; a value in the wrong format is named the way v2 always did. */
function problemsOf(errors: ErrorObject[], body: unknown): string[] {
  const formatErrors = errors.filter((e) => e.keyword === 'format');
  const others = errors.filter((e) => e.keyword !== 'format' && !formatErrors.some((f) => f.instancePath === e.instancePath));
  const valueAt = (pointer: string) => pointer.split('/').slice(1).reduce<any>((node, key) => node?.[key], body);
  const pascal = (pointer: string) => { const name = pointer.split('/').pop() ?? ''; return name.charAt(0).toUpperCase() + name.slice(1); };
  return capProblems([
    ...[...new Set(formatErrors.map((e) => e.instancePath))].map((p) => `The value '${valueAt(p)}' is not valid for ${pascal(p)}.`),
    ...validationItems(others, 'body').map((i) => i.detail.replace(/^\//, '')),
  ], moreProblems);
}

const nok = (reply: FastifyReply, message: string, result: unknown) =>
  reply.code(400).type('application/json').serializer(JSON.stringify).send({ messageCode: 'NOK', message, result });

function isEmpty(body: unknown): boolean {
  if (body === undefined || body === null || body === EMPTY) return true;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}

export const v2BodyPlugin = fp(async (app: FastifyInstance) => {
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (!isV2(request)) return defaultJsonParser(request, body as string, done);
    const text = (body as string).trim();
    if (text === '') return done(null, EMPTY);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, MALFORMED);
    }
  });

  app.addHook('preValidation', async (request, reply) => {
    if (!isV2(request)) return;
    const op = operationById(request.routeOptions.config.operationId!);
    if (op.query && request.query && typeof request.query === 'object') {
      request.query = normalise(request.query, op.query as Schema) as typeof request.query;
    }
    if (!op.body || request.method === 'GET') return;
    if (request.body === MALFORMED) return reply.code(400).type('application/json').serializer(JSON.stringify).send(v2BadRequest);
    // Form bodies arrive nested already (http/form-body.ts).
    const raw = request.body;
    // A body whose fields are all optional (shipment search) may be empty: no criteria.
    const required = (op.body as Schema & { required?: string[] }).required ?? [];
    if (isEmpty(raw) && required.length) return nok(reply, v2Messages.emptyValue, null);
    const body = normalise(raw === EMPTY || raw === undefined || raw === null ? {} : raw, op.body as Schema);
    const validate = validatorOf(op);
    if (!validate(body)) {
      const problems = problemsOf(validate.errors ?? [], body);
      return nok(reply, purchaseOrderOperationIds.includes(op.operationId) ? v2Messages.purchaseOrderValidation : v2Messages.malformed, problems);
    }
    request.body = body;
  });
});
