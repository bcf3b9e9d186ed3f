// OpenAI's stored-response endpoints: the owner's own responses only (src/responses/stored-response-relay.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayStoredResponse, type StoredResponseAction } from '../../responses/stored-response-relay.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayReply } from '../send-relay-result.ts';

const ROUTES: [method: 'GET' | 'DELETE' | 'POST', url: string, action: StoredResponseAction][] = [
  ['GET', '/v1/responses/:id', 'retrieve'],
  ['DELETE', '/v1/responses/:id', 'delete'],
  ['GET', '/v1/responses/:id/input_items', 'input_items'],
  ['POST', '/v1/responses/:id/cancel', 'cancel'],
];

export function storedResponsesRoutes(app: FastifyInstance, deps: RelayDeps): void {
  for (const [method, url, action] of ROUTES) {
    app.route({
      method,
      url,
      config: { errorFormat: 'openai-chat' },
      handler: async (request: FastifyRequest, reply) => {
        const key = authenticateRequest(deps.state, request);
        const { id } = request.params as { id: string };
        const queryAt = request.url.indexOf('?');
        return sendRelayReply(reply, await relayStoredResponse(deps, {
          key,
          id,
          action,
          query: queryAt < 0 ? '' : request.url.slice(queryAt + 1),
          signal: abortSignalForClient(reply),
        }));
      },
    });
  }
}
