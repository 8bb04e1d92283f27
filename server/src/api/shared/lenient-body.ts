// Lenient v2 requests: existing v2 integrations send JSON or form bodies with keys in any case and numbers as text.
// Before validation this plugin brings every v2 body and query to the contract's camelCase names and types, noting in the
// request's warnings each key it drops and (in JSON, where types are the client's choice) each value it converts.
// Fastify then validates the brought body against the contract's schema, and lenientBodyRefusal answers a failure in the v2
// words (section 8 of the v2 spec).
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject } from 'ajv';
import { limits, operationById, purchaseOrderOperationIds, v2BadRequest, v2Messages } from '@shopapi/contract';
import { validationItems } from './validation.ts';
import { capProblems, moreProblems } from './errors.ts';
import type { WarningSink } from '../../platform/request-warnings.ts';

/** Markers the JSON parser leaves for the hook, which answers in the v2 format. */
const EMPTY = Object.freeze({ marker: 'empty' });
const MALFORMED = Object.freeze({ marker: 'malformed' });

const isForm = (request: FastifyRequest) =>
  String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('application/x-www-form-urlencoded');

/** Keys compare without case, underscores or dashes: ExternalOrderNumber, externalOrderNumber, all_products. */
const keyOf = (name: string) => name.replace(/[_-]/g, '').toLowerCase();

type Schema = TSchema & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  patternProperties?: Record<string, Schema>;
};

const typesOf = (schema: Schema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.const !== undefined) return [typeof schema.const];
  return schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
};

const branch = (schema: Schema, type: string): Schema | undefined =>
  schema.anyOf ? schema.anyOf.map((s) => branch(s, type)).find(Boolean) : typesOf(schema).includes(type) ? schema : undefined;

/**
 * Where normalise notes what it did, for the Sandbox-Warning headers and the request log. The path holds the keys from the
 * root to the value at hand, pushed and popped on the way down, so a place costs nothing until a note names it.
 */
export interface Notes {
  warnings: WarningSink;
  /** A JSON body, whose values carry their own types: a number sent there as text is worth a note. Form fields and query parameters are text by nature. */
  typed: boolean;
  /** Query parameters: a note names the parameter; body fields: a JSON pointer. */
  query: boolean;
  path: (string | number)[];
}

const escapeKey = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** The place a note is about: a known field by the contract's name, an unknown key as the client spelled it. */
function sourceOf(notes: Notes, key?: string | number): string {
  if (notes.query) return String(key ?? notes.path[0] ?? '');
  let pointer = '';
  for (const k of notes.path) pointer += `/${escapeKey(k)}`;
  return key === undefined ? pointer : `${pointer}/${escapeKey(key)}`;
}

/** Called only when notes.typed holds, so a form or query conversion builds no text. */
const noteCoercion = (notes: Notes, detail: string) => notes.warnings.add('coerced', detail, sourceOf(notes));

/** normalise for one child value, its key on the path while it is read. */
function child(value: unknown, schema: Schema, key: string | number, notes: Notes | undefined): unknown {
  if (!notes) return normalise(value, schema);
  notes.path.push(key);
  const out = normalise(value, schema, notes);
  notes.path.pop();
  return out;
}

/** Brings one value to the names and types its schema describes; what cannot be brought is left for validation to report. */
export function normalise(value: unknown, schema: Schema, notes?: Notes): unknown {
  const types = typesOf(schema);
  if (value === null || value === undefined) return value;
  const objectSchema = branch(schema, 'object');
  const arraySchema = branch(schema, 'array');
  if (Array.isArray(value)) {
    if (arraySchema?.items) return value.map((v, i) => child(v, arraySchema.items!, i, notes));
    // A body that is just the list, e.g. [1, 2] for {ids: [1, 2]}.
    const listProperty = objectSchema?.properties && Object.entries(objectSchema.properties).filter(([, p]) => branch(p, 'array'));
    if (listProperty?.length === 1) {
      if (notes?.typed) noteCoercion(notes, `a bare list read as ${listProperty[0][0]}`);
      return { [listProperty[0][0]]: child(value, listProperty[0][1], listProperty[0][0], notes) };
    }
    return value;
  }
  if (typeof value === 'object') {
    if (arraySchema?.items) {
      // {"0": a, "1": b} for a list, as some clients encode one. An index past the list's bound stays an object, which
      // validation refuses: one key must not stand for a list longer than the contract allows.
      const entries = Object.entries(value as Record<string, unknown>);
      const bound = (arraySchema as { maxItems?: number }).maxItems ?? limits.formArrayIndexMax;
      if (entries.every(([k]) => /^\d{1,9}$/.test(k) && Number(k) < bound)) {
        if (notes?.typed) noteCoercion(notes, 'an object with index keys read as a list');
        return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([k, v]) => child(v, arraySchema.items!, k, notes));
      }
    }
    if (!objectSchema?.properties) return value;
    const names = new Map(Object.keys(objectSchema.properties).map((name) => [keyOf(name), name]));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const name = names.get(keyOf(key));
      // Unknown keys (deprecated fields old clients still send) are dropped, not refused; the client sees which in its warnings.
      if (!name) {
        notes?.warnings.add(
          'ignored',
          notes.query ? 'not a parameter of this call; not read' : 'not a field of this call; not read',
          sourceOf(notes, key),
        );
        continue;
      }
      if (notes && Object.hasOwn(out, name))
        notes.warnings.add('ignored', `${name} came twice, in two spellings; this later one is read`, sourceOf(notes, name));
      out[name] = child(v, objectSchema.properties[name], name, notes);
    }
    return out;
  }
  if (arraySchema?.items && !types.includes(typeof value)) {
    if (notes?.typed) noteCoercion(notes, 'a single value read as a list of one');
    return [normalise(value, arraySchema.items, notes)];
  }
  if (typeof value === 'string') {
    const text = value.trim();
    // A number too large for a double (400 digits) stays text, so validation refuses it instead of storing Infinity.
    if (
      (types.includes('integer') || types.includes('number')) &&
      !types.includes('string') &&
      /^-?\d+(\.\d+)?$/.test(text) &&
      Number.isFinite(Number(text))
    ) {
      if (notes?.typed) noteCoercion(notes, `the text "${text}" read as the number ${Number(text)}`);
      return Number(text);
    }
    if (types.includes('boolean') && !types.includes('string') && /^(true|false|1|0)$/i.test(text)) {
      const flag = /^(true|1)$/i.test(text);
      if (notes?.typed) noteCoercion(notes, `the text "${text}" read as ${flag}`);
      return flag;
    }
    if (text === '' && types.includes('null') && !types.includes('string')) {
      if (notes?.typed) noteCoercion(notes, 'an empty text read as null');
      return null;
    }
    return value;
  }
  if ((typeof value === 'number' || typeof value === 'boolean') && types.includes('string') && !types.includes(typeof value)) {
    if (notes?.typed) noteCoercion(notes, `the ${typeof value} ${value} read as the text "${value}"`);
    return String(value);
  }
  return value;
}

/** Field problems in words a v2 integrator recognises; a value in the wrong format is named the way v2 always did. */
function problemsOf(errors: ErrorObject[], body: unknown): string[] {
  const formatErrors = errors.filter((e) => e.keyword === 'format');
  const others = errors.filter((e) => e.keyword !== 'format' && !formatErrors.some((f) => f.instancePath === e.instancePath));
  const valueAt = (pointer: string) =>
    pointer
      .split('/')
      .slice(1)
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
  const pascal = (pointer: string) => {
    const name = pointer.split('/').pop() ?? '';
    return name.charAt(0).toUpperCase() + name.slice(1);
  };
  return capProblems(
    [
      ...[...new Set(formatErrors.map((e) => e.instancePath))].map((p) => `The value '${valueAt(p)}' is not valid for ${pascal(p)}.`),
      ...validationItems(others, 'body').map((i) => i.detail.replace(/^\//, '')),
    ],
    moreProblems,
  );
}

const nok = (reply: FastifyReply, message: string, result: unknown) =>
  reply.code(400).type('application/json').serializer(JSON.stringify).send({ messageCode: 'NOK', message, result });

function isEmpty(body: unknown): boolean {
  if (body === undefined || body === null || body === EMPTY) return true;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}

/** Registered by the plugins of v2-style calls (api/v2, /status and /settings): applies to their routes only. */
export const lenientBodyPlugin = fp(
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = (body as string).trim();
      if (text === '') return done(null, EMPTY);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(null, MALFORMED);
      }
    });

    app.addHook('preValidation', async (request, reply) => {
      const op = operationById(request.routeOptions.config.operationId!);
      const query = request.query as Record<string, unknown> | undefined;
      if (op.query && query && typeof query === 'object') {
        request.query = normalise(query, op.query as Schema, {
          warnings: request.warnings,
          typed: false,
          query: true,
          path: [],
        }) as typeof request.query;
      } else if (query) {
        for (const name in query) request.warnings.add('ignored', 'not a parameter of this call; not read', name);
      }
      if (!op.body || request.method === 'GET') return;
      if (request.body === MALFORMED) return reply.code(400).type('application/json').serializer(JSON.stringify).send(v2BadRequest);
      // Form bodies arrive nested already (http/form-body.ts).
      const raw = request.body;
      // A body whose fields are all optional (shipment search) may be empty: no criteria.
      const required = (op.body as Schema & { required?: string[] }).required ?? [];
      if (isEmpty(raw) && required.length) return nok(reply, v2Messages.emptyValue, null);
      const notes: Notes = { warnings: request.warnings, typed: !isForm(request), query: false, path: [] };
      request.body = normalise(raw === EMPTY || raw === undefined || raw === null ? {} : raw, op.body as Schema, notes);
    });
  },
  { name: 'shopapi-lenient-body', fastify: '5.x' },
);

/** The answer to a body that failed the contract's schema (Fastify's validation, after normalise): the NOK envelope. */
export function lenientBodyRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (!error.validation || error.validationContext !== 'body') return undefined;
  const operationId = request.routeOptions.config.operationId ?? '';
  return nok(
    reply,
    purchaseOrderOperationIds.includes(operationId) ? v2Messages.purchaseOrderValidation : v2Messages.malformed,
    problemsOf(error.validation as ErrorObject[], request.body),
  );
}
