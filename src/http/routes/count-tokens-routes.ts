// Token counting in the callers' own shapes: Anthropic's POST /v1/messages/count_tokens (registered here)
// and Gemini's :countTokens (dispatched from gemini-generate-route.ts). Exact from a channel that speaks
// the format, a local estimate otherwise (src/relay/count-tokens.ts); the `x-gateway-token-count` response
// header says which (`exact` or `estimate`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CachedKey } from '../../accounts/key-index.ts';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { countPromptTokens, type CountTokensRequest } from '../../relay/count-tokens.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import { anthropicMessagesCall } from '../../formats/anthropic-messages/anthropic-messages-request.ts';
import { geminiGenerateFormat } from '../../formats/gemini-generate/index.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';

/** Validation only: count_tokens has no max_tokens, so the Messages validator gets one that bounds nothing. */
const UNBOUNDED_MAX_TOKENS = 2 ** 31;

interface CountAnswer {
  body: Record<string, unknown>;
  exact: boolean;
}

export function anthropicCountTokensRoute(app: FastifyInstance, deps: RelayDeps): void {
  app.post('/v1/messages/count_tokens', { config: { errorFormat: 'anthropic-messages' } }, async (request, reply) => {
    const startedAt = performance.now();
    const key = authenticateRequest(deps.state, request);
    const log = { requestId: request.id, endpoint: '/v1/messages/count_tokens', inboundFormat: 'anthropic-messages' as const, startedAt };
    try {
      return await countAnthropicTokens(deps, key, request, reply, log);
    } catch (error) {
      const model = (request.body as { model?: unknown } | undefined)?.model;
      recordRefusedCall(deps, { ...log, key, model, stream: false }, error);
      throw error;
    }
  });
}

async function countAnthropicTokens(deps: RelayDeps, key: CachedKey, request: FastifyRequest, reply: FastifyReply, log: CountTokensRequest['log']): Promise<Record<string, unknown>> {
  if (!request.headers['anthropic-version']) throw invalidRequest('anthropic-version: header is required', null, 'missing_header');
  const raw = request.body;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('The body must be a JSON object with model and messages.');
  const body = raw as Record<string, unknown>;
  // The same checks as POST /v1/messages makes before choosing a channel: a malformed request is not counted.
  const hub = anthropicMessagesCall({ ...body, max_tokens: UNBOUNDED_MAX_TOKENS, stream: false });
  request.metricsModel = hub.model;
  const forwardHeaders: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const value = request.headers[name];
    if (typeof value === 'string') forwardHeaders[name] = value;
  }
  const count = await countPromptTokens(deps, {
    key,
    model: hub.model,
    signal: abortSignalForClient(reply),
    exactFormat: 'anthropic-messages',
    upstreamBody: (upstreamModel) => JSON.stringify({ ...body, model: upstreamModel }),
    forwardHeaders,
    promptBody: body,
    log,
  });
  reply.header('x-gateway-token-count', count.exact ? 'exact' : 'estimate');
  if (reply.server.costHeader !== false) reply.header('x-gateway-cost', '0');
  return count.exact ? count.body : { input_tokens: count.tokens };
}

/** Gemini's :countTokens body: `contents` (with optional tools and system instruction) or `generateContentRequest`. */
export async function geminiCountTokens(deps: RelayDeps, key: CachedKey, model: string, raw: unknown, signal: AbortSignal, log: CountTokensRequest['log']): Promise<CountAnswer> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('The body must be a JSON object with contents.');
  const body = raw as Record<string, unknown>;
  const generate = body.generateContentRequest;
  if (generate !== undefined && (typeof generate !== 'object' || generate === null)) throw invalidRequest('generateContentRequest must be an object.', 'generateContentRequest');
  geminiGenerateFormat.requestToHub(generate ?? body, { model, stream: false });
  const count = await countPromptTokens(deps, {
    key,
    model,
    signal,
    exactFormat: 'gemini-generate',
    upstreamBody: (upstreamModel) => JSON.stringify(generate ? { ...body, generateContentRequest: { ...generate, model: `models/${upstreamModel}` } } : body),
    promptBody: (generate ?? body) as Record<string, unknown>,
    log,
  });
  return count.exact ? { body: count.body, exact: true } : { body: { totalTokens: count.tokens }, exact: false };
}
