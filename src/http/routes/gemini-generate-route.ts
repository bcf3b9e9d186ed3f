// Gemini's model methods, to any channel: generateContent and streamGenerateContent (?alt=sse), countTokens,
// embedContent and batchEmbedContents. The model is in the path, the key in `?key=` or `x-goog-api-key`.
// A model name may span several path segments (`google/gemini-2.0-flash`, as @google/genai sends it) or
// carry them encoded (`google%2Fgemini-2.0-flash`): the route takes the rest of the path after /models/
// and splits the method off at the last colon, so ids with colons (`llama3:8b`) still look up as models.
// The documented requests are POSTs with a JSON body; a GET carrying a body is accepted the same way.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientTraceHeaders, type RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { newCallMeter, type RelayCall } from '../../relay/relay-types.ts';
import { invalidJson, invalidRequest, routeNotFound, urlPartTooLong } from '../../gateway-errors.ts';
import { geminiGenerateFormat } from '../../formats/gemini-generate/index.ts';
import { prepareGeminiEmbed } from '../../endpoints/gemini-embed-content.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayResult } from '../send-relay-result.ts';
import { fastifyExchange, type RelayExchange } from './relay-route.ts';
import type { CachedKey } from '../../accounts/key-index.ts';
import { retrieveModel } from './models-route.ts';
import { geminiCountTokens } from './count-tokens-routes.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';
import { readBody } from '../read-body.ts';
import { mayHoldForeignThoughts, withoutForeignThoughts } from '../../formats/gemini-generate/gemini-generate-passthrough-body.ts';

const MAX_MODEL_PATH_CHARS = 256;
type Action = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';
const ACTIONS: ReadonlySet<string> = new Set<Action>(['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents']);

/** `google/gemini-2.0-flash:generateContent` → model and method; no method when the suffix is not one. */
export function splitModelPath(path: string): { model: string; action: Action | null } {
  // The wildcard route has no per-segment length limit of its own; model ids are short.
  if (path.length > MAX_MODEL_PATH_CHARS) throw urlPartTooLong(MAX_MODEL_PATH_CHARS);
  const split = path.lastIndexOf(':');
  const suffix = split > 0 ? path.slice(split + 1) : '';
  let model = ACTIONS.has(suffix) ? path.slice(0, split) : path;
  // `models/x` in the path (a client that kept the resource prefix) names the same model as `x`.
  if (model.startsWith('models/')) model = model.slice('models/'.length);
  return { model, action: ACTIONS.has(suffix) ? suffix as Action : null };
}

export function geminiGenerateRoutes(app: FastifyInstance, deps: RelayDeps): void {
  const act = async (request: FastifyRequest, reply: FastifyReply, model: string, action: Action | null) => {
    const startedAt = performance.now();
    if (action === null || model === '') throw routeNotFound(request.method, request.url.split('?')[0] ?? '');
    const key = authenticateRequest(deps.state, request);
    request.metricsModel = model;
    if (action !== 'countTokens') {
      let payload;
      try {
        const rawBody = request.rawBody ?? await readBodyOfGet(request);
        payload = { rawBody, body: request.body ?? parseJson(rawBody) };
      } catch (error) {
        recordRefusedCall(deps, { requestId: request.id, key, endpoint: `/v1beta/models/{model}:${action}`, inboundFormat: 'gemini-generate', model, stream: action === 'streamGenerateContent', startedAt }, error);
        throw error;
      }
      await relayGeminiCall(deps, fastifyExchange(request, reply), payload, key, { model, action, alt: (request.query as { alt?: unknown }).alt }, startedAt);
      return reply;
    }
    try {
      const body = request.body ?? parseJson(request.rawBody ?? await readBodyOfGet(request));
      const log = { requestId: request.id, endpoint: `/v1beta/models/{model}:${action}`, inboundFormat: 'gemini-generate' as const, startedAt };
      const count = await geminiCountTokens(deps, key, model, body, abortSignalForClient(reply), log);
      // Counting is free, as upstream: nothing is charged.
      if (reply.server.costHeader !== false) reply.header('x-gateway-cost', '0');
      return reply.header('x-gateway-token-count', count.exact ? 'exact' : 'estimate').send(count.body);
    } catch (error) {
      recordRefusedCall(deps, { requestId: request.id, key, endpoint: `/v1beta/models/{model}:${action}`, inboundFormat: 'gemini-generate', model, stream: false, startedAt }, error);
      throw error;
    }
  };
  // The lean lane (src/http/relay-lane.ts) serves POSTs of generateContent and streamGenerateContent under
  // /v1beta through the same relayGeminiCall; anything it cannot read exactly as Fastify does comes here.
  app.relayLane?.addPrefix(GEMINI_LANE_PREFIX, {
    metricsRoute: `${GEMINI_LANE_PREFIX}*`,
    errorFormat: 'gemini-generate',
    match(rest) {
      const { model, action } = splitModelPath(rest);
      if (model === '' || (action !== 'generateContent' && action !== 'streamGenerateContent')) return null;
      return {
        // Only an absent body is an empty request; a JSON null goes on as null, as on Fastify's path.
        relay: (exchange, key, query, startedAt) => relayGeminiCall(deps, exchange, { rawBody: exchange.rawBody, body: exchange.body === undefined ? {} : exchange.body }, key, { model, action, alt: query.alt }, startedAt),
      };
    },
  });
  for (const prefix of ['/v1beta', '/v1']) {
    const gemini = prefix === '/v1beta';
    // Under /v1 the path decides the error shape: `{model}:generateContent` is Gemini's, `/v1/models/{id}`
    // OpenAI's or Anthropic's (errorFormatForUrl).
    const config: FastifyContextConfig = gemini ? { errorFormat: 'gemini-generate' } : {};
    app.post(`${prefix}/models/*`, { config }, (request, reply) => {
      const { model, action } = splitModelPath((request.params as { '*': string })['*']);
      return act(request, reply, model, action);
    });
    app.get(`${prefix}/models/*`, { config }, async (request, reply) => {
      const { model, action } = splitModelPath((request.params as { '*': string })['*']);
      // Without a method it is a model lookup: GET /v1/models/{id} (OpenAI, Anthropic), /v1beta/models/{id} (Gemini).
      if (action === null) return reply.send(retrieveModel(deps.state, request, model, gemini));
      return act(request, reply, model, action);
    });
  }
}

const GEMINI_LANE_PREFIX = '/v1beta/models/';

type RelayedAction = Exclude<Action, 'countTokens'>;

/**
 * generateContent, streamGenerateContent, embedContent and batchEmbedContents for a caller whose key is
 * known, whoever received the request (Fastify's routes or the lean lane). `payload.body` is the parsed
 * JSON body, `{}` when there was none. A refusal is logged like any refused call and thrown on.
 */
async function relayGeminiCall(deps: RelayDeps, exchange: RelayExchange, payload: { rawBody: Buffer | undefined; body: unknown }, key: CachedKey, target: { model: string; action: RelayedAction; alt: unknown }, startedAt: number): Promise<void> {
  const { model, action } = target;
  const stream = action === 'streamGenerateContent';
  exchange.noteModel(model);
  try {
    const body = payload.body;
    const call: RelayCall = {
      requestId: exchange.requestId,
      key,
      endpoint: `/v1beta/models/{model}:${action}`,
      inboundFormat: 'gemini-generate',
      model,
      stream,
      body: (body ?? {}) as Record<string, unknown>,
      rawBody: payload.rawBody ?? Buffer.alloc(0),
      signal: abortSignalForClient(exchange.response),
      startedAt,
      forwardHeaders: {},
      meter: newCallMeter(),
      traceHeaders: clientTraceHeaders(deps, exchange.headers),
    };
    if (action === 'embedContent' || action === 'batchEmbedContents') {
      const prepared = prepareGeminiEmbed(body, model, action === 'batchEmbedContents');
      call.body = prepared.body;
      return await sendRelayResult(exchange, await prepared.relay(deps, call));
    }
    if (stream && target.alt !== 'sse') {
      throw invalidRequest('streamGenerateContent is served as Server-Sent Events: add ?alt=sse (the @google/genai SDK does).', 'alt', 'unsupported_stream_format');
    }
    const inHub = geminiGenerateFormat.requestToHub(body, { model, stream });
    // A Gemini channel gets the body without thoughts another provider signed (Gemini would refuse them).
    const own = mayHoldForeignThoughts(call.rawBody) ? withoutForeignThoughts(call.body) : null;
    const forGemini = own ? { ...call, body: own, rawBody: Buffer.from(JSON.stringify(own)) } : call;
    const passthroughChanges = own ? ['thought parts dropped: another provider signed them, and Gemini takes back only its own'] : [];
    await sendRelayResult(exchange, await relayChat(deps, forGemini, { hubRequest: () => inHub, passthroughChanges }));
  } catch (error) {
    // Refused with the key known: logged like any refused call (README: every call is logged).
    recordRefusedCall(deps, { requestId: exchange.requestId, key, endpoint: `/v1beta/models/{model}:${action}`, inboundFormat: 'gemini-generate', model, stream, startedAt }, error);
    throw error;
  }
}

/** Fastify does not read bodies of GET requests; Gemini clients may send one anyway (bounded like any body). */
function readBodyOfGet(request: FastifyRequest): Promise<Buffer> {
  return readBody(request.raw, request.server.initialConfig.bodyLimit ?? 1_048_576);
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return {};
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw invalidJson((error as Error).message);
  }
}
