// POST /v1/messages: Anthropic's Messages API, to any channel. The key in x-api-key (or Bearer);
// anthropic-version is required, as Anthropic requires it. Errors in Anthropic's shape.
import type { FastifyInstance } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayChat } from '../../relay/relay-chat.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import { anthropicMessagesCall } from '../../formats/anthropic-messages/anthropic-messages-request.ts';
import { relayRoute } from './relay-route.ts';
import type { RelayCall } from '../../relay/relay-types.ts';
import { mayHoldForeignThinking, withAnthropicThinkingBudget, withoutForeignThinking } from '../../formats/anthropic-messages/anthropic-messages-passthrough-body.ts';
import { anthropicCountTokensRoute } from './count-tokens-routes.ts';

/**
 * The call as an Anthropic channel should get it: without the thinking blocks other providers made (their
 * marked signatures would be refused), with a thinking budget Anthropic takes. Translated hops read the hub
 * request, whose conversion does both on its own.
 */
function forAnthropicChannels(call: RelayCall): { call: RelayCall; changes: string[] } {
  const changes: string[] = [];
  let body: Record<string, unknown> | null = null;
  if (mayHoldForeignThinking(call.rawBody)) {
    body = withoutForeignThinking(call.body);
    if (body) changes.push(`thinking blocks dropped: another provider signed them, and Anthropic takes back only its own${body.thinking === undefined && call.body.thinking !== undefined ? '; thinking was turned off for this request, whose last tool turn lost its block' : ''}`);
  }
  const raised = withAnthropicThinkingBudget(body ?? call.body);
  if (raised) {
    body = raised;
    changes.push(`thinking.budget_tokens changed: Anthropic's smallest thinking budget is ${(raised.thinking as { budget_tokens: number }).budget_tokens} tokens; raised to it`);
  }
  return { call: body ? { ...call, body, rawBody: Buffer.from(JSON.stringify(body)) } : call, changes };
}

export function anthropicMessagesRoute(app: FastifyInstance, deps: RelayDeps): void {
  // POST /v1/messages/count_tokens: exact from an Anthropic channel, estimated for others.
  anthropicCountTokensRoute(app, deps);
  relayRoute(app, deps, {
    url: '/v1/messages',
    inboundFormat: 'anthropic-messages',
    // Claude Code's session header also names the session for affinity (src/routing/session-affinity.ts).
    forwardHeaders: ['anthropic-version', 'anthropic-beta', 'x-claude-code-session-id'],
    checkHeaders(headers) {
      if (!headers['anthropic-version']) throw invalidRequest('anthropic-version: header is required', null, 'missing_header');
    },
    prepare(raw) {
      // Checked here; translated only for a channel of another format (an Anthropic channel takes every block).
      const checked = anthropicMessagesCall(raw);
      const body = raw as Record<string, unknown>;
      return {
        model: checked.model,
        stream: checked.stream,
        body,
        relay: (relayDeps, call) => {
          const forAnthropic = forAnthropicChannels(call);
          return relayChat(relayDeps, forAnthropic.call, { hubRequest: checked.hubRequest, passthroughChanges: forAnthropic.changes });
        },
      };
    },
  });
}
