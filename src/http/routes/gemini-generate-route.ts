// Gemini's generateContent and streamGenerateContent (?alt=sse), to any channel: the model is in the path,
// the key in `?key=` or `x-goog-api-key`. The documented request is a POST with a JSON body; a GET
// carrying a body is accepted the same way. GET /v1beta/models lists models in Gemini's shape.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { newCallMeter } from '../../relay/relay-types.ts';
import { invalidJson, invalidRequest, modelNotFound, routeNotFound } from '../../gateway-errors.ts';
import { geminiGenerateFormat } from '../../formats/gemini-generate/index.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayResult } from '../send-relay-result.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';

const ACTIONS = new Set(['generateContent', 'streamGenerateContent']);

export function geminiGenerateRoutes(app: FastifyInstance, deps: RelayDeps): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const { modelAction } = request.params as { modelAction: string };
    const split = modelAction.lastIndexOf(':');
    const model = split > 0 ? decodeURIComponent(modelAction.slice(0, split)) : '';
    const action = split > 0 ? modelAction.slice(split + 1) : '';
    if (!ACTIONS.has(action)) throw routeNotFound(request.method, request.url.split('?')[0] ?? '');
    const key = authenticateRequest(deps.state, request);
    const stream = action === 'streamGenerateContent';
    const meter = newCallMeter();
    try {
      if (stream && (request.query as { alt?: string }).alt !== 'sse') {
        throw invalidRequest('streamGenerateContent is served as Server-Sent Events: add ?alt=sse (the @google/genai SDK does).', 'alt', 'unsupported_stream_format');
      }
      const rawBody = request.rawBody ?? await readBodyOfGet(request);
      const body = request.body ?? parseJson(rawBody);
      const { request: hubRequest } = geminiGenerateFormat.requestToHub(body, { model, stream });
      request.metricsModel = model;
      const result = await relayChat(deps, {
        requestId: request.id,
        key,
        endpoint: `/v1beta/models/{model}:${action}`,
        inboundFormat: 'gemini-generate',
        model,
        stream,
        body: (body ?? {}) as Record<string, unknown>,
        rawBody,
        signal: abortSignalForClient(reply),
        startedAt,
        forwardHeaders: {},
        meter,
      }, { hubRequest: () => hubRequest, maxOutputTokens: hubRequest.maxOutputTokens ?? null });
      return sendRelayResult(reply, result);
    } catch (error) {
      recordRefusedCall(deps, { requestId: request.id, key, endpoint: `/v1beta/models/{model}:${action}`, inboundFormat: 'gemini-generate', model, stream, startedAt, alreadyRecorded: meter.recorded }, error);
      throw error;
    }
  };
  for (const prefix of ['/v1beta', '/v1']) {
    app.post(`${prefix}/models/:modelAction`, { config: { errorFormat: 'gemini' } }, handler);
    app.get(`${prefix}/models/:modelAction`, { config: { errorFormat: 'gemini' } }, async (request, reply) => {
      const { modelAction } = request.params as { modelAction: string };
      // Without an action it is a model lookup: GET /v1/models/{id} (OpenAI, Anthropic), /v1beta/models/{id} (Gemini).
      if (!modelAction.includes(':')) return reply.send(retrieveModel(deps, request, decodeURIComponent(modelAction), prefix));
      return handler(request, reply);
    });
  }
  app.get('/v1beta/models', { config: { errorFormat: 'gemini' } }, async (request) => {
    const key = authenticateRequest(deps.state, request);
    const models = deps.state.current.routing.modelsForGroup(key.groupName).filter((model) => !key.models || key.models.has(model.id));
    return {
      models: models.map((model) => ({
        name: `models/${model.id}`,
        baseModelId: model.id,
        version: '001',
        displayName: model.id,
        description: `${model.id}, served by the gateway`,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      })),
    };
  });
}

/** One model the key may use, in the caller's shape; 404 model_not_found otherwise. */
function retrieveModel(deps: RelayDeps, request: FastifyRequest, id: string, prefix: string): object {
  request.errorFormat = prefix === '/v1beta' ? 'gemini' : request.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
  const key = authenticateRequest(deps.state, request);
  const model = deps.state.current.routing.modelsForGroup(key.groupName).find((candidate) => candidate.id === id && (!key.models || key.models.has(id)));
  if (!model) throw modelNotFound(id);
  if (prefix === '/v1beta') return { name: `models/${model.id}`, baseModelId: model.id, version: '001', displayName: model.id, supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] };
  if (request.headers['anthropic-version'] !== undefined) return { type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.createdAt).toISOString() };
  return { id: model.id, object: 'model', created: Math.floor(model.createdAt / 1000), owned_by: model.ownedBy };
}

/** Fastify does not read bodies of GET requests; Gemini clients may send one anyway. */
async function readBodyOfGet(request: FastifyRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return {};
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw invalidJson((error as Error).message);
  }
}
