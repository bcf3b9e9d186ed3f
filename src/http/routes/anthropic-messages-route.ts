// POST /v1/messages: Anthropic's Messages API, to any channel. The key in x-api-key (or Bearer);
// anthropic-version is required, as Anthropic requires it. Errors in Anthropic's shape.
import type { FastifyInstance } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import { anthropicMessagesFormat } from '../../formats/anthropic-messages/index.ts';
import { relayRoute } from './relay-route.ts';
import { anthropicCountTokensRoute } from './count-tokens-routes.ts';

export function anthropicMessagesRoute(app: FastifyInstance, deps: RelayDeps): void {
  // POST /v1/messages/count_tokens: exact from an Anthropic channel, estimated for others.
  anthropicCountTokensRoute(app, deps);
  relayRoute(app, deps, {
    url: '/v1/messages',
    inboundFormat: 'anthropic-messages',
    forwardHeaders: ['anthropic-version', 'anthropic-beta'],
    checkHeaders(headers) {
      if (!headers['anthropic-version']) throw invalidRequest('anthropic-version: header is required', null, 'missing_header');
    },
    prepare(raw) {
      const { request } = anthropicMessagesFormat.requestToHub(raw);
      const body = raw as Record<string, unknown>;
      return {
        model: request.model,
        stream: request.stream,
        body,
        relay: (relayDeps, call) => relayChat(relayDeps, call, { hubRequest: () => request }),
      };
    },
  });
}
