// The fields of an OpenAPI schema as a Markdown list for machine readers: each field's name, type, whether it is
// required, its limits and its description, nested as the JSON is. Written by hand because the contract's schemas use a
// handful of JSON Schema forms (nullable and enumerated values as anyOf, JSON:API resources as oneOf by `type`), which
// read far better folded into one line each than as the raw schema.
import type {Schema} from '../../reference/openapi';

/** A schema as a reader wants it: a type, its limits, and for objects their fields or their alternatives. */
interface Described {
  type: string;
  facts: string[];
  description?: string;
  fields: Field[];
  variants: {label: string; described: Described}[];
}

interface Field {
  name: string;
  required: boolean;
  described: Described;
}

/** Text as inline code, with a longer fence when it holds a backtick itself. */
const inlineCode = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** A JSON value as inline code: `"order"`, `false`. */
const code = (value: unknown) => inlineCode(JSON.stringify(value));

/** "1 to 50 characters", "at most 100 items": a lower and an upper bound in words. */
function range(min: number | undefined, max: number | undefined, unit?: [string, string]): string | undefined {
  const counted = (count: number) => (unit ? `${count} ${count === 1 ? unit[0] : unit[1]}` : String(count));
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${counted(max)}` : `${min} to ${counted(max)}`;
  if (max !== undefined) return `at most ${counted(max)}`;
  if (min !== undefined) return `at least ${counted(min)}`;
  return undefined;
}

/** The limits and other facts a schema states about its value. */
function factsOf(schema: Schema): string[] {
  const facts = [
    // A file's length is counted in bytes (an upload's body, a multipart file part).
    range(schema.minLength, schema.maxLength, schema.format === 'binary' || schema.contentMediaType ? ['byte', 'bytes'] : ['character', 'characters']),
    range(schema.minimum, schema.maximum),
    schema.exclusiveMinimum !== undefined ? `more than ${schema.exclusiveMinimum}` : undefined,
    schema.exclusiveMaximum !== undefined ? `less than ${schema.exclusiveMaximum}` : undefined,
    schema.multipleOf !== undefined ? `multiple of ${schema.multipleOf}` : undefined,
    range(schema.minItems, schema.maxItems, ['item', 'items']),
    schema.uniqueItems ? 'no duplicates' : undefined,
    schema.maxProperties !== undefined ? `at most ${schema.maxProperties} entries` : undefined,
    schema.pattern !== undefined ? `pattern ${inlineCode(schema.pattern)}` : undefined,
    schema.const !== undefined ? `value ${code(schema.const)}` : undefined,
    schema.enum ? `one of ${schema.enum.map(code).join(', ')}` : undefined,
    schema.contentMediaType ? `content ${schema.contentMediaType}` : undefined,
    schema.contentEncoding ? `encoded as ${schema.contentEncoding}` : undefined,
    schema.default !== undefined ? `default ${code(schema.default)}` : undefined,
    schema.deprecated ? 'deprecated' : undefined,
  ];
  return facts.filter((fact): fact is string => fact !== undefined);
}

/** The JSON type of a schema without alternatives: `string (date)`, `string or null`, `array of objects`. */
function typeOf(schema: Schema, items?: Described): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'value')];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${items ? plural(items.type) : 'values'}`;
      return schema.format ? `${type} (${schema.format})` : type;
    })
    .join(' or ');
}

function plural(type: string): string {
  return type
    .split(' or ')
    .map((one) => (one === 'null' ? one : one.replace(/^(\w+)/, '$1s')))
    .join(' or ');
}

/** How a variant of a oneOf is told apart: the constant `type` of a JSON:API resource, else its place. */
function variantLabel(variant: Schema, index: number): string {
  const type = variant.properties?.type?.const;
  return type === undefined ? `variant ${index + 1}` : `\`type\` is ${code(type)}`;
}

/** A schema made readable: alternatives folded where they are a nullable value, an enumeration or a choice of scalars. */
function describe(schema: Schema): Described {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const values = alternatives.filter((alternative) => alternative.type !== 'null');
    const nullable = values.length < alternatives.length;
    const orNull = (described: Described): Described => (nullable ? {...described, type: `${described.type} or null`} : described);
    const own = {description: schema.description, facts: factsOf(schema)};
    if (values.length === 1) {
      const described = describe(values[0]);
      return orNull({...described, description: own.description ?? described.description, facts: [...described.facts, ...own.facts]});
    }
    if (values.every((value) => value.const !== undefined)) {
      const types = [...new Set(values.map((value) => typeOf(value)))];
      const oneOf = `one of ${values.map((value) => code(value.const)).join(', ')}`;
      return orNull({type: types.join(' or '), ...own, facts: [oneOf, ...own.facts], fields: [], variants: []});
    }
    const described = values.map(describe);
    if (described.every((value) => value.fields.length === 0 && value.variants.length === 0)) {
      // A choice of scalars: their types, and each one's limits after its type when they differ.
      const sameFacts = described.every((value) => value.facts.join() === described[0].facts.join());
      const facts = sameFacts
        ? described[0].facts
        : described.filter((value) => value.facts.length > 0).map((value) => `${value.type}: ${value.facts.join(', ')}`);
      return orNull({type: described.map((value) => value.type).join(' or '), ...own, facts: [...facts, ...own.facts], fields: [], variants: []});
    }
    return orNull({
      type: 'object',
      ...own,
      fields: [],
      variants: values.map((value, index) => ({label: variantLabel(value, index), described: described[index]})),
    });
  }
  const items = schema.items ? describe(schema.items) : undefined;
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    required: schema.required?.includes(name) ?? false,
    described: describe(property),
  }));
  const entries = Object.values(schema.patternProperties ?? {}).map((property) => ({name: '<any name>', required: false, described: describe(property)}));
  const described: Described = {type: typeOf(schema, items), facts: factsOf(schema), description: schema.description, fields: [...fields, ...entries], variants: []};
  if (!items) return described;
  // An array's line says what each item is; an item's own fields or alternatives are listed under it.
  const itemFacts = items.facts.length > 0 ? [`each item: ${items.facts.join(', ')}`] : [];
  return {...described, facts: [...described.facts, ...itemFacts], fields: items.fields, variants: items.variants};
}

function oneLineText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** One list item: `name` (type, required, limits): description, with its own fields nested under it. */
function fieldLines(field: Field, indent: string): string[] {
  const {described} = field;
  const facts = [described.type, field.required ? 'required' : 'optional', ...described.facts].join(', ');
  const description = described.description ? `: ${oneLineText(described.description)}` : '';
  return [`${indent}- \`${field.name}\` (${facts})${description}`, ...childLines(described, `${indent}  `)];
}

function childLines(described: Described, indent: string): string[] {
  return [
    ...described.fields.flatMap((field) => fieldLines(field, indent)),
    ...described.variants.flatMap(({label, described: variant}) => [
      `${indent}- when ${label}:`,
      ...childLines(variant, `${indent}  `),
    ]),
  ];
}

/**
 * The fields of a request body as a nested Markdown list; a body that is not an object (an uploaded file) as one line
 * that says what it is.
 */
export function bodyFieldLines(schema: Schema): string[] {
  const described = describe(schema);
  if (described.fields.length > 0 || described.variants.length > 0) return childLines(described, '');
  const facts = [described.type, ...described.facts].join(', ');
  return [`- the body itself (${facts})${described.description ? `: ${oneLineText(described.description)}` : ''}`];
}

/** A parameter's or a field's type and limits in a few words: `string, at most 100 characters`. */
export function typeAndFacts(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const described = describe(schema);
  return [described.type, ...described.facts];
}
