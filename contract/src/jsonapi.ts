// Builders for JSON:API document schemas, so every resource is described the same way.
import { Type, type Static, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';
import { Nullable } from './formats.ts';

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

/** Ids are PostgreSQL integers: anything larger cannot name a resource. */
export const MAX_ID = 2147483647;

export const ResourceId = Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Identifier assigned by the server.', examples: [1] });

/** Ids in requests may be JSON numbers or strings (existing clients send both). */
export const RequestId = Type.Union([
  Type.Integer({ minimum: 1, maximum: MAX_ID }),
  Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'An id as a numeric string.' }),
]);
/** Client-chosen provisional id: only links resources inside one request. */
export const ProvisionalId = Type.Union([Type.Integer(), Type.String({ minLength: 1, maxLength: 100 })]);

export const SelfLinks = Type.Object({ self: Type.String({ format: 'uri' }) });

export const PaginationLinks = Type.Object({
  self: Type.String({ format: 'uri' }),
  first: Type.String({ format: 'uri' }),
  next: Type.Optional(Type.String({ format: 'uri', description: 'Absent on the last page.' })),
});

export function Identifier(type: string) {
  return Type.Object({ type: Type.Literal(type), id: ResourceId });
}

export function ToOne(type: string, description?: string) {
  return Type.Object({ data: Nullable(Identifier(type)) }, { description });
}

export function ToMany(type: string, description?: string) {
  return Type.Object({ data: Type.Array(Identifier(type)) }, { description });
}

/** A resource object as the server returns it. */
export function Resource<A extends TProperties, R extends TProperties>(
  type: string,
  attributes: TObject<A>,
  relationships?: TObject<R>,
  description?: string,
) {
  return Type.Object(
    {
      type: Type.Literal(type),
      id: ResourceId,
      attributes,
      ...(relationships ? { relationships } : {}),
      links: SelfLinks,
    },
    { title: type, description },
  );
}

export function SingleDocument(resource: TSchema, included: TSchema[] = [], meta?: TObject) {
  return Type.Object({
    data: resource,
    ...(included.length ? { included: Type.Optional(Type.Array(included.length === 1 ? included[0] : Type.Union(included))) } : {}),
    ...(meta ? { meta } : {}),
    links: Type.Optional(SelfLinks),
  });
}

export function CollectionDocument(resource: TSchema, included: TSchema[] = []) {
  return Type.Object({
    data: Type.Array(resource),
    ...(included.length ? { included: Type.Optional(Type.Array(included.length === 1 ? included[0] : Type.Union(included))) } : {}),
    links: PaginationLinks,
    meta: Type.Optional(Type.Object({ page: Type.Optional(Type.Object({ size: Type.Integer() })) })),
  });
}

/**
 * Resources of several types told apart by `type`: validators report only the matching branch's problems,
 * and OpenAPI readers see the discriminator.
 */
export function OneOfByType<T extends TObject[]>(schemas: [...T], description?: string) {
  // type and required come first so a validator never reads the discriminator of a non-object.
  return Type.Unsafe<Static<TUnion<T>>>({
    type: 'object',
    required: ['type'],
    oneOf: schemas,
    discriminator: { propertyName: 'type' },
    ...(description ? { description } : {}),
  });
}
