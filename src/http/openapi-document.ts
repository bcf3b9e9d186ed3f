// The OpenAPI 3.1 document for /api, generated from the zod schemas the routes validate with
// (z.toJSONSchema: JSON Schema 2020-12, which OpenAPI 3.1 uses as is). No hand-written copy.
import { z } from 'zod';
import { answerSchemaOf, type RegisteredApiRoute } from './api-route.ts';

type JsonSchema = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: { message: { type: 'string' }, type: { type: 'string' }, param: { type: ['string', 'null'] }, code: { type: ['string', 'null'] } },
    },
  },
};

function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

export async function buildOpenApiDocument(routes: readonly RegisteredApiRoute[], serverUrl: string): Promise<JsonSchema> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const answer = await answerSchemaOf(route);
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const status = String(route.status ?? 200);
    const security = route.access === 'public' ? [] : route.allowKeys ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }];
    const operation: JsonSchema = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security,
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      responses: {
        [route.redirects ? '303' : status]: route.redirects
          ? { description: route.returns ?? 'A redirect', headers: { Location: { schema: { type: 'string' } } } }
          : {
            description: route.returns ?? 'Success',
            content: { [route.produces ?? 'application/json']: { schema: route.produces ? { type: 'string' } : answer ? toSchema(answer, 'output') : { type: 'object' } } },
          },
        default: { description: 'An error in the OpenAI envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (route.access !== 'public') {
      operation.description = `Access: ${route.access}.${route.allowKeys ? ' Accepts an sk- key as a Bearer token.' : ''}${route.method !== 'GET' ? ' With a session cookie, send X-CSRF-Token.' : ''}`;
    }
    if (route.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(route.body) } } };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Model gateway accounts and administration API', version: '1' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'gw_session', description: 'Set by POST /api/auth/login. State-changing requests also need the X-CSRF-Token header.' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'An sk- key of the gateway.' },
      },
    },
  };
}
