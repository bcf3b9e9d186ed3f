// POST /v1/chat/completions: OpenAI's chat API.
import type { FastifyInstance } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { validateOpenAIChatBody } from '../../relay/validate-openai-chat.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayResult } from '../send-relay-result.ts';
import { newCallMeter } from '../../relay/relay-types.ts';

export function chatCompletionsRoute(app: FastifyInstance, deps: RelayDeps): void {
  app.post('/v1/chat/completions', { config: { errorFormat: 'openai' } }, async (request, reply) => {
    const startedAt = performance.now();
    const key = authenticateRequest(deps.state, request);
    const body = validateOpenAIChatBody(request.body);
    request.metricsModel = body.model;
    const result = await relayChat(deps, {
      requestId: request.id,
      key,
      endpoint: '/v1/chat/completions',
      inboundFormat: 'openai-chat',
      model: body.model,
      stream: body.stream === true,
      body,
      rawBody: request.rawBody!,
      signal: abortSignalForClient(reply),
      startedAt,
      forwardHeaders: {},
      meter: newCallMeter(),
    }, maxOutputTokensOf(body));
    return sendRelayResult(reply, result);
  });
}

function maxOutputTokensOf(body: Record<string, unknown>): number | null {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' ? value : null;
}
