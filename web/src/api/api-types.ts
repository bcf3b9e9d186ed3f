// The request shapes of /api, from the generated types (generated/api-types.ts, `npm run api:types`), which
// come from the zod schemas the server validates with: an adapter that sends a body the server would
// refuse does not compile. The document declares request bodies, query strings and path parameters;
// answers are read by each adapter into its own shape.
import type { paths } from './generated/api-types.ts';

type Method = 'post' | 'put' | 'patch';

/** The JSON body `method path` takes. */
export type ApiBody<Path extends keyof paths, M extends Method> =
  paths[Path][M] extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;
