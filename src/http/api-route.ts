// Declares /api routes from zod schemas: one declaration validates the request (400 naming the field, in
// the OpenAI envelope), resolves the caller (src/http/api-caller.ts) and feeds the OpenAPI document, so the
// documentation cannot drift from what the server accepts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseBody } from '../validate-request.ts';
import { invalidRequest } from '../gateway-errors.ts';
import { resolveApiCaller, type ApiAccess, type ApiCaller, type ApiCallerDeps } from './api-caller.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type AnyObject = z.ZodType<Record<string, unknown>>;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
/** What a handler returns: the declared answer (as it goes into JSON), or nothing for `{ ok: true }`, or
 * the reply when it sent something itself (a redirect, a file). Without a declared answer: anything. */
type AnswerOf<R> = R extends z.ZodType ? z.input<R> | FastifyReply | undefined : unknown;

interface ApiContext<B, Q, P, A extends ApiAccess> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  caller: A extends 'public' ? ApiCaller | undefined : ApiCaller;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface ApiRouteSpec<B extends AnyObject | undefined, Q extends AnyObject | undefined, P extends AnyObject | undefined, A extends ApiAccess, R extends z.ZodType | undefined = undefined> {
  method: Method;
  /** Fastify syntax: /api/keys/:id */
  url: string;
  summary: string;
  tag: string;
  access: A;
  /** Whether an sk- key is accepted besides the session cookie (never for account and key changes). */
  allowKeys?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Status of a successful answer, for the document (default 200). */
  status?: number;
  /** What the answer holds, in a sentence, for the document. */
  returns?: string;
  /** Other content type of the answer, e.g. text/csv. */
  produces?: string;
  /** The route answers with a 303 redirect (a browser navigation, not a fetch), never JSON. */
  redirects?: true;
  /** Largest body in bytes, when smaller than BODY_LIMIT (a public route a stranger can post to). */
  bodyLimit?: number;
  /**
   * What a successful JSON answer holds. One schema is the handler's return type, the OpenAPI document's
   * answer (so the dashboard's generated types), and, with API_CHECK_ANSWERS (the tests), a check of every
   * answer as it goes out: the three cannot drift apart.
   */
  answer?: R | LazyAnswer<NonNullable<R>>;
  handler(context: ApiContext<B, Q, P, A>): Promise<AnswerOf<R>>;
}

export type RegisteredApiRoute = Pick<ApiRouteSpec<AnyObject | undefined, AnyObject | undefined, AnyObject | undefined, ApiAccess, z.ZodType>, 'method' | 'url' | 'summary' | 'tag' | 'access' | 'allowKeys' | 'body' | 'query' | 'params' | 'status' | 'returns' | 'produces' | 'redirects' | 'answer'>;

export interface ApiRouter {
  route<B extends AnyObject | undefined = undefined, Q extends AnyObject | undefined = undefined, P extends AnyObject | undefined = undefined, A extends ApiAccess = ApiAccess, R extends z.ZodType | undefined = undefined>(spec: ApiRouteSpec<B, Q, P, A, R>): void;
  readonly routes: readonly RegisteredApiRoute[];
}

/**
 * An answer schema whose module is imported on first use: when the OpenAPI document is built or, in the
 * tests, an answer is checked. The routes' ~150 answer schemas held 1.3 MB of heap at idle when imported at
 * start, for a document nobody may ask for. `R` still types the handler's answer (a type-only import).
 */
export interface LazyAnswer<R extends z.ZodType> {
  readonly load: () => Promise<R>;
}

/** `answer: lazyAnswer(keysAnswers, (m) => m.keysAnswer)`, where keysAnswers is a function importing the route file's answers module. */
export function lazyAnswer<M, R extends z.ZodType>(load: () => Promise<M>, pick: (module: M) => R): LazyAnswer<R> {
  let schema: Promise<R> | undefined;
  return { load: () => (schema ??= load().then(pick)) };
}

/** The route's answer schema, loading it if it is lazy. */
export async function answerSchemaOf(route: RegisteredApiRoute): Promise<z.ZodType | undefined> {
  const answer = route.answer;
  return answer === undefined || answer instanceof z.ZodType ? answer : answer.load();
}

/** The answer of a route that only says it did it (a handler returning nothing sends this). */
export const okAnswer = z.object({ ok: z.literal(true) });

export interface ApiRouterOptions {
  /** Check every JSON answer against its route's declared schema (API_CHECK_ANSWERS; on in the tests). */
  checkAnswers?: boolean;
}

/** Positive integer path ids; anything else is a 404-worthy id, but reported as a 400 naming `id`. */
export const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The last millisecond of year 9999: later instants are no calendar date a period can end on. */
const LAST_TIME_MS = 253_402_300_799_999;
const parseTime = (text: string) => (/^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text));

/**
 * A `from`/`to` query value: an ISO 8601 date-time or epoch milliseconds, from 1970 to the end of 9999.
 * Past what a Date holds (±8.64e15 ms), toISOString threw and the statistics answered 500.
 */
export const timeParam = z.string().max(40)
  .refine((text) => {
    const ms = parseTime(text);
    return Number.isFinite(ms) && ms >= 0 && ms <= LAST_TIME_MS;
  }, 'expected an ISO 8601 date-time or epoch milliseconds, from 1970 to the year 9999')
  .transform(parseTime);

export function createApiRouter(app: FastifyInstance, deps: ApiCallerDeps, options: ApiRouterOptions = {}): ApiRouter {
  const routes: RegisteredApiRoute[] = [];
  return {
    routes,
    route(spec) {
      routes.push(spec as RegisteredApiRoute);
      app.route({
        method: spec.method,
        url: spec.url,
        config: { errorFormat: 'openai-chat' },
        ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
        handler: async (request, reply) => {
          // JSON only: a cross-site HTML form can post text/plain that happens to parse as JSON (a sign-in
          // CSRF); it cannot send application/json without the browser asking this origin first.
          if (request.rawBody && request.rawBody.length > 0 && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers['content-type'] ?? '')) {
            throw invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
          }
          const caller = await resolveApiCaller(deps, request, spec.access, spec.allowKeys ?? false);
          const context = {
            params: spec.params ? parseQuery(spec.params, request.params) : undefined,
            query: spec.query ? parseQuery(spec.query, request.query) : undefined,
            body: spec.body ? parseBody(spec.body, request.body) : undefined,
            caller,
            request,
            reply,
          } as ApiContext<never, never, never, never>;
          const result = await spec.handler(context as never);
          if (reply.sent || result === reply) return reply;
          if (spec.status) reply.code(spec.status);
          const answer = result ?? { ok: true };
          if (options.checkAnswers && spec.answer) checkAnswer(spec as RegisteredApiRoute, (await answerSchemaOf(spec as RegisteredApiRoute))!, answer);
          return answer;
        },
      });
    },
  };
}

/**
 * The answer as the client will read it (after JSON) against the route's declared schema. A mismatch is the
 * server's own bug, so it throws (a 500 naming the route and the fields) rather than send an answer the
 * document, and the dashboard's types, say cannot happen.
 */
function checkAnswer(spec: RegisteredApiRoute, schema: z.ZodType, answer: unknown): void {
  const checked = schema.safeParse(JSON.parse(JSON.stringify(answer)));
  if (checked.success) return;
  const problems = checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
  throw new Error(`${spec.method} ${spec.url} answered outside its declared schema: ${problems.join('; ')}`);
}

/** Query strings and path parameters: strings only, each at most 2 KB, validated by the zod schema. */
function parseQuery<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const values = (input ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string') throw invalidRequest(`Invalid value for '${name}': give it once.`, name, 'invalid_value');
    if (value.length > 2048) throw invalidRequest(`Invalid value for '${name}': too long.`, name, 'invalid_value');
  }
  return parseBody(schema, values);
}
