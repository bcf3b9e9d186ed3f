// One WebSocket connection of the Responses API's WebSocket mode (what Codex's built-in OpenAI provider opens
// first): the client sends `response.create` messages (the body of POST /v1/responses, flattened, without
// `stream`), one at a time; each is relayed exactly as a streamed POST would be (same endpoint, so the same
// admission, rate limits, failover, metering and usage log), and each event of the answer goes back as one
// text frame holding the event's JSON. A refusal is one `error` event carrying its HTTP status, as OpenAI's
// WebSocket mode sends it; the connection stays open for the next response.
//
// previous_response_id across the connection: with `store: false` (Codex) nothing is kept server-side, so
// the connection remembers its last response (the whole input it answered and its output) and a create that
// names it gets that history put in front of its new input, on whichever channel serves it. With store on,
// the gateway's kept responses serve it as for HTTP.
//
// Like an HTTP call, each turn counts in gateway_requests_total (route /v1/responses, its status) and has its
// usage row. What the gateway changed (the x-gateway-warnings header of HTTP) has no header here: it goes in
// the turn's Response objects as `metadata["x-gateway-warnings"]` (metadata is the one free-form field of the
// Responses schema: string values up to 512 characters, at most 16 keys), and to the log.
//
// A turn that lands on a channel speaking the WebSocket mode itself (OpenAI) goes over that upstream's own
// WebSocket, one per channel for this connection, reused turn after turn and closed with it
// (src/upstream/responses-upstream-sockets.ts); the relay reads its frames as a streamed POST's events.
import type { IncomingHttpHeaders } from 'node:http';
import type WebSocket from 'ws';
import type { CachedKey } from '../accounts/key-index.ts';
import { prepareResponses } from '../endpoints/responses.ts';
import { GatewayError, invalidJson, invalidRequest } from '../gateway-errors.ts';
import { recordRefusedCall } from '../relay/record-refusal.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { newCallMeter, type RelayCall, type RelayResult } from '../relay/relay-types.ts';
import { responseEnvelope } from '../formats/openai-responses/index.ts';
import { mintResponseId } from '../responses/keeping-client.ts';
import { WARNINGS_HEADER } from '../relay/client-warnings.ts';
import { boundedMetricsModel } from './metrics.ts';
import { ResponsesUpstreamSockets } from '../upstream/responses-upstream-sockets.ts';

interface ResponsesSocketLimits {
  /** Closed after this long without a message while no response is running. */
  idleTimeoutMs: number;
  /** The upgrade request's traceparent and tracestate (tracing on): each response's span is their child. */
  traceHeaders?: IncomingHttpHeaders | undefined;
}

interface LastResponse {
  id: string;
  /** The input it answered (history included) followed by its output: what a continuation stands on. */
  history: unknown[];
}

const ENDPOINT = '/v1/responses';
/** The Responses schema's limits on metadata. */
const METADATA_VALUE_MAX = 512;
const METADATA_KEYS_MAX = 16;

/**
 * `authenticate` checks the key presented on the upgrade again against the current key index: a key
 * disabled, deleted or expired while the connection is open answers its next response.create with the
 * error (and the connection closes), as the next HTTP call would.
 * @public Loaded on first use through a dynamic import (issue 16: idle memory).
 */
export function serveResponsesSocket(deps: RelayDeps, socket: WebSocket, authenticate: () => CachedKey, connectionId: string, limits: ResponsesSocketLimits, onClose: () => void): void {
  let queue: Promise<void> = Promise.resolve();
  let running = 0;
  let count = 0;
  let last: LastResponse | null = null;
  const aborts = new Set<AbortController>();
  // The upstream's own WebSocket, per channel that speaks it (OpenAI), for this connection's turns.
  const upstreamSockets = new ResponsesUpstreamSockets(deps.agents, limits.idleTimeoutMs, deps.logger, connectionId);
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    if (running === 0) idle = setTimeout(() => socket.close(1000, 'idle timeout'), limits.idleTimeoutMs);
  };
  armIdle();

  const send = (data: string) => new Promise<void>((resolve) => {
    if (socket.readyState !== socket.OPEN) return resolve();
    socket.send(data, () => resolve());
  });
  const sendError = (error: unknown) => {
    const e = error instanceof GatewayError ? error : null;
    if (!e) deps.logger.error({ err: error, requestId: connectionId }, 'responses websocket: a response failed');
    return send(JSON.stringify({
      type: 'error',
      status: e?.status ?? 500,
      error: { type: e?.kind ?? 'server_error', code: e?.code ?? null, message: e?.message ?? 'The gateway failed to answer.', param: e?.param ?? null },
    }));
  };

  /** The body to relay: the create message without its type, streamed, and continued from this connection's last response. */
  const bodyOf = (message: Record<string, unknown>): Record<string, unknown> => {
    const { type: _type, response: nested, ...flat } = message;
    const body: Record<string, unknown> = { ...(nested !== null && typeof nested === 'object' ? nested as Record<string, unknown> : {}), ...flat, stream: true };
    if (last && body.previous_response_id === last.id && body.store === false) {
      const { previous_response_id: _previous, generate: _generate, ...rest } = body;
      return { ...rest, input: [...last.history, ...inputOf(body)] };
    }
    const { generate: _generate, ...rest } = body;
    return rest;
  };

  /**
   * `generate: false` (Codex warms the connection up with it): the request is checked and answered with an
   * empty completed response, nothing is sent upstream or charged; a continuation may name it.
   */
  const warmUp = async (body: Record<string, unknown>) => {
    try {
      prepareResponses(body);
    } catch (error) {
      return sendError(error);
    }
    const id = mintResponseId();
    const response = (status: 'in_progress' | 'completed') => responseEnvelope({
      id, createdAt: Math.floor(Date.now() / 1000), model: String(body.model), status, incompleteDetails: null, output: [],
      usage: status === 'completed' ? { inputTokens: 0, outputTokens: 0 } : null, requestBody: body,
    });
    await send(JSON.stringify({ type: 'response.created', sequence_number: 0, response: response('in_progress') }));
    await send(JSON.stringify({ type: 'response.completed', sequence_number: 1, response: response('completed') }));
    last = { id, history: inputOf(body) };
  };

  const respond = async (message: Record<string, unknown>) => {
    const startedAt = performance.now();
    const abort = new AbortController();
    aborts.add(abort);
    const body = bodyOf(message);
    let call: RelayCall | undefined;
    let result: RelayResult;
    let key: CachedKey;
    try {
      key = authenticate();
    } catch (error) {
      aborts.delete(abort);
      await sendError(error);
      socket.close(1008, 'key refused');
      return;
    }
    if (message.generate === false) {
      aborts.delete(abort);
      return warmUp(body);
    }
    // Counted as the HTTP route counts a call, once its answer (or refusal) has been handed to the socket.
    const countTurn = (status: number) => deps.metrics.requests.inc({ route: ENDPOINT, model: boundedMetricsModel(deps.state.current, typeof body.model === 'string' ? body.model : undefined), status: String(status) });
    try {
      const prepared = prepareResponses(body);
      call = {
        requestId: `${connectionId}-${++count}`, key, endpoint: ENDPOINT, inboundFormat: 'openai-responses', model: prepared.model, stream: true,
        body: prepared.body, rawBody: Buffer.from(JSON.stringify(body)), signal: abort.signal, startedAt, forwardHeaders: {}, meter: newCallMeter(),
        traceHeaders: limits.traceHeaders, responsesSockets: upstreamSockets,
      };
      result = await prepared.relay(deps, call);
    } catch (error) {
      recordRefusedCall(deps, { requestId: call?.requestId ?? `${connectionId}-${count}`, key, endpoint: ENDPOINT, inboundFormat: 'openai-responses', model: call?.model ?? body.model, stream: true, startedAt }, error);
      aborts.delete(abort);
      await sendError(error);
      countTurn(error instanceof GatewayError ? error.status : 500);
      return;
    }
    const warnings = result.headers[WARNINGS_HEADER];
    if (warnings) deps.logger.info({ requestId: call.requestId, warnings }, 'responses websocket: the gateway changed the request');
    try {
      const completed = await sendEvents(result, send, warnings);
      if (completed && typeof completed.id === 'string') last = { id: completed.id, history: [...inputOf(body), ...(Array.isArray(completed.output) ? completed.output : [])] };
    } finally {
      aborts.delete(abort);
      countTurn(result.status);
    }
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      void sendError(invalidRequest('Messages on this WebSocket are JSON text frames.', null, 'invalid_value'));
      return;
    }
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(String(data));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      void sendError(invalidJson('a message must be a JSON object with a type, e.g. {"type":"response.create", "model": …}.'));
      return;
    }
    // Codex acknowledges each answer (response.processed): nothing to do.
    if (message.type === 'response.processed') return;
    if (message.type !== 'response.create') {
      void sendError(invalidRequest(`Unknown message type '${String(message.type)}': this WebSocket takes response.create messages.`, 'type', 'invalid_value'));
      return;
    }
    running++;
    clearTimeout(idle);
    // One response at a time, in the order asked: a continuation needs the answer before it.
    queue = queue.then(() => respond(message)).catch((error: unknown) => deps.logger.error({ err: error, requestId: connectionId }, 'responses websocket: sending an answer failed')).finally(() => {
      running--;
      armIdle();
    });
  });
  socket.on('close', () => {
    clearTimeout(idle);
    for (const abort of aborts) abort.abort();
    upstreamSockets.closeAll();
    onClose();
  });
}

const inputOf = (body: Record<string, unknown>): unknown[] => (typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : []);

/**
 * Sends each SSE event's data as one text frame, the gateway's warnings put in the metadata of the Response
 * objects it carries; returns the finished Response (response.completed), if any.
 */
async function sendEvents(result: RelayResult, send: (data: string) => Promise<void>, warnings: string | undefined): Promise<Record<string, unknown> | null> {
  if (result.kind === 'buffer') {
    // A whole answer (not expected: the body asks for a stream) is one event.
    const text = typeof result.body === 'string' ? result.body : result.body.toString('utf8');
    await send(text);
    return null;
  }
  let pending = '';
  let completed: Record<string, unknown> | null = null;
  const flush = async (block: string) => {
    const data = block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5)).join('\n');
    if (data === '' || data === '[DONE]') return;
    // Only the events that carry a whole Response (created, in_progress, completed, failed, incomplete) are read.
    const carriesResponse = data.includes('"response.completed"') || (warnings !== undefined && data.includes('"response":{'));
    if (!carriesResponse) return send(data);
    let event: { type?: string; response?: Record<string, unknown> };
    try {
      event = JSON.parse(data) as typeof event;
    } catch {
      return send(data);
    }
    if (event.type === 'response.completed' && event.response) completed = event.response;
    await send(warnings !== undefined && withWarnings(event.response, warnings) ? JSON.stringify(event) : data);
  };
  for await (const chunk of result.body) {
    pending += (typeof chunk === 'string' ? chunk : chunk.toString('utf8')).replace(/\r\n/g, '\n');
    let end = pending.indexOf('\n\n');
    while (end >= 0) {
      await flush(pending.slice(0, end));
      pending = pending.slice(end + 2);
      end = pending.indexOf('\n\n');
    }
  }
  if (pending.trim() !== '') await flush(pending);
  return completed;
}

/** Puts the warnings in a Response's metadata, within the schema's limits; false when there is no room (or no Response). */
function withWarnings(response: Record<string, unknown> | undefined, warnings: string): boolean {
  if (!response || typeof response !== 'object') return false;
  const metadata = response.metadata !== null && typeof response.metadata === 'object' ? response.metadata as Record<string, unknown> : {};
  if (!(WARNINGS_HEADER in metadata) && Object.keys(metadata).length >= METADATA_KEYS_MAX) return false;
  const value = warnings.length > METADATA_VALUE_MAX ? `${warnings.slice(0, METADATA_VALUE_MAX - 1)}…` : warnings;
  response.metadata = { ...metadata, [WARNINGS_HEADER]: value };
  return true;
}
