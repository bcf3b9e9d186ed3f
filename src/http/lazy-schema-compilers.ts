// Fastify's JSON-schema compilers, loaded on first use. Fastify requires @fastify/ajv-compiler (ajv: ~90
// modules) and fast-json-stringify at construction unless a compilersFactory is given, yet no gateway route
// hands Fastify a schema: requests are validated with zod (src/http/api-route.ts, src/validate-request.ts)
// and hand-written checks. Deferring the two factories keeps ~100 modules out of the idle process (issue 16,
// memory) while a route or plugin that does declare a schema still gets Fastify's own compilers, unchanged.
//
// One difference: a custom factory makes Fastify pass a `headers` schema to the compiler as written instead
// of lower-casing its keys first, so such a schema must name headers in lower case.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SchemaControllerOptions = NonNullable<FastifyServerOptions['schemaController']>;
type CompilersFactory = NonNullable<SchemaControllerOptions['compilersFactory']>;
// Fastify's own factory types are overloads that a forwarding function cannot restate; forwarding keeps
// whatever the real factory takes and returns, so the plain shape is enough here.
type Factory = (externalSchemas: unknown, options: unknown) => unknown;
type ValidatorFactory = Factory;
type SerializerFactory = Factory;

// Resolved from Fastify's own location: these are Fastify's dependencies, in the versions it expects.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

let validatorFactory: ValidatorFactory | undefined;
let serializerFactory: SerializerFactory | undefined;

/** Whether Fastify's validator / serializer compiler has been loaded (a route declared a schema). */
export function schemaCompilersLoaded(): { validator: boolean; serializer: boolean } {
  return { validator: validatorFactory !== undefined, serializer: serializerFactory !== undefined };
}

const buildValidator: ValidatorFactory = (externalSchemas, options) => {
  validatorFactory ??= (requireFromFastify('@fastify/ajv-compiler') as () => ValidatorFactory)();
  return validatorFactory(externalSchemas, options);
};

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  serializerFactory ??= (requireFromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)();
  return serializerFactory(externalSchemas, options);
};

/** The `schemaController` option for Fastify(): its default compilers, loaded when first needed. */
export const lazySchemaController: SchemaControllerOptions = {
  compilersFactory: { buildValidator, buildSerializer } as CompilersFactory,
};
