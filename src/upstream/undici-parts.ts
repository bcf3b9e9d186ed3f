// The three parts of undici the gateway uses — the pooled Agent, `request` (for fetching images and files
// named by URL) and its error classes — loaded without undici's index, which pulls in 109 modules (fetch,
// WebSocket, EventSource, the cache and mock agents) for ~24 used: about 2 MB of heap and more of RSS at
// idle (issue 16, memory). undici has no `exports` map, so its files are required directly, from its own
// location. The error classes are the very ones the index exports (one module instance), so `instanceof`
// holds for errors thrown by any undici code path.
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher, errors as UndiciErrors } from 'undici';

const requireFromUndici = createRequire(createRequire(import.meta.url).resolve('undici'));

export const Agent = requireFromUndici('./lib/dispatcher/agent.js') as typeof UndiciAgent;
export type Agent = UndiciAgent;
export const errors = requireFromUndici('./lib/core/errors.js') as typeof UndiciErrors;

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;
const apiRequest = requireFromUndici('./lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { getGlobalDispatcher } = requireFromUndici('./lib/global.js') as { getGlobalDispatcher(): Dispatcher };

/** undici's `request(url, options)` through the global dispatcher, as its index offers it. */
export function request(url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(getGlobalDispatcher(), { ...options, origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname });
}
