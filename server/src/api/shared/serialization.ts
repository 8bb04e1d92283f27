// Response serializers compiled at a route's first answer with that status, not at start. Fastify's own serializer
// compiler (fast-json-stringify, through the compiler Fastify itself uses) builds them; only the moment changes.
// Compiling the serializers of every route and status cost each `npm start` about a third of a second of CPU.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

const buildEagerly = SerializerSelector();

/** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = buildEagerly(externalSchemas, options);
  return (route) => {
    let serialize: ((document: unknown) => string) | undefined;
    return (document) => {
      serialize ??= compile(route);
      return serialize(document);
    };
  };
};
