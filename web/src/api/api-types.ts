// The request shapes of /api, from the generated types (generated/api-types.ts, `npm run api:types`), which
// come from the zod schemas the server validates with: an adapter that sends a body the server would
// refuse does not compile; and the answer shapes, from each route's declared answer schema, which the
// handler's return type and (in the tests) every answer sent are checked against.
import type { paths } from './generated/api-types.ts';

type Method = 'post' | 'put' | 'patch';

/** The JSON body `method path` takes. */
export type ApiBody<Path extends keyof paths, M extends Method> =
  paths[Path][M] extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;

type AnyMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What `method path` answers (its success status's JSON), from the route's declared answer schema. */
export type ApiAnswer<Path extends keyof paths, M extends AnyMethod> =
  paths[Path][M] extends { responses: infer Responses }
    ? { [Status in keyof Responses]: Responses[Status] extends { content: { 'application/json': infer Answer } } ? (Status extends 'default' ? never : Answer) : never }[keyof Responses]
    : never;
