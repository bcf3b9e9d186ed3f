// GET/DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items and POST /v1/responses/{id}/cancel:
// OpenAI's stored-response endpoints, for the response's owner only: served from the gateway's own store
// for responses it keeps, relayed to the channel that holds the response otherwise. Anyone else's id, and
// an id the gateway never saw, get the 404 an unknown id gets.
import type { StoredResponseAction, StoredResponseRequest } from './stored-response-request.ts';
import { responseNotFound, upstreamTimeout, upstreamUnreachable, gatewayError } from '../gateway-errors.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { RelayResult } from '../relay/relay-types.ts';
import { gatewayErrorFromUpstream } from '../relay/upstream-error.ts';
import { classifyTransportError, DEFAULT_TIMEOUTS } from '../relay/attempt-policy.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import { serveKeptResponse } from './serve-kept-response.ts';

export type { StoredResponseAction } from './stored-response-request.ts';


const SHAPES: Record<StoredResponseAction, { method: 'GET' | 'POST' | 'DELETE'; suffix: string }> = {
  retrieve: { method: 'GET', suffix: '' },
  delete: { method: 'DELETE', suffix: '' },
  input_items: { method: 'GET', suffix: '/input_items' },
  cancel: { method: 'POST', suffix: '/cancel' },
};


export async function relayStoredResponse(deps: RelayDeps, request: StoredResponseRequest): Promise<RelayResult> {
  const owner = await deps.responseOwners.lookup(request.id);
  if (!owner || owner.userId !== request.key.userId) throw responseNotFound(request.id);
  if (owner.keptBy === 'gateway') return serveKeptResponse(deps.responseOwners, request);
  const channel = owner.channelId === null ? undefined : deps.state.current.routing.channel(owner.channelId);
  if (!channel || !supportsOperation(channel, 'responses')) {
    throw gatewayError('GW_ERR_RESPONSE_CHANNEL_UNAVAILABLE', { message: `The channel that holds response '${request.id}' is not available right now; try again later.`, code: 'channel_unavailable' });
  }
  const shape = SHAPES[request.action];
  const path = `${operationPath(channel, 'responses', '')}/${encodeURIComponent(request.id)}${shape.suffix}${request.query ? `?${request.query}` : ''}`;
  let response;
  try {
    response = await sendUpstream(deps.agents, {
      channel,
      path,
      method: shape.method,
      headers: shape.method === 'POST' ? { 'content-type': 'application/json' } : {},
      ...(shape.method === 'POST' ? { body: '{}' } : {}),
      signal: request.signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? DEFAULT_TIMEOUTS.streamHeadersMs,
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw classifyTransportError(error) === 'silent' ? upstreamTimeout(channel.name, 'response headers') : upstreamUnreachable(channel.name, error);
  }
  if (response.statusCode >= 400) throw gatewayErrorFromUpstream(channel, response.statusCode, await response.text().catch(() => ''));
  if (request.action === 'delete') await deps.responseOwners.forget(request.id);
  // Passed through as it arrives (a retrieve with stream=true answers with events).
  return { kind: 'stream', status: response.statusCode, headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') }, body: passThrough(response.chunks()) };
}

async function* passThrough(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield chunk;
}
