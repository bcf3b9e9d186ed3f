// POST /v1/chat/completions: OpenAI's chat API.
import type { FastifyInstance } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { validateOpenAIChatBody } from '../../formats/openai-chat/openai-chat-validate.ts';
import { relayRoute, type RelayRouteOptions } from './relay-route.ts';
import { openaiChatFormat } from '../../formats/openai-chat/index.ts';

export function chatCompletionsRoute(app: FastifyInstance, deps: RelayDeps): void {
  relayRoute(app, deps, CHAT_COMPLETIONS);
}

/** How /v1/chat/completions is validated and relayed; the dashboard's playground relays the same way. */
export const CHAT_COMPLETIONS: RelayRouteOptions = {
    url: '/v1/chat/completions',
    inboundFormat: 'openai-chat',
    prepare(raw) {
      const body = validateOpenAIChatBody(raw);
      return {
        model: body.model,
        stream: body.stream === true,
        body,
        relay: (relayDeps, call) => relayChat(relayDeps, call, { hubRequest: () => openaiChatFormat.requestToHub(body) }),
      };
    },
};
