// A tool call is accounted like a model call: counted against the key's and its owner's requests-per-minute
// limits, its price (if its server has one, times the group's ratio) reserved against the key's quota and
// the wallet before it goes upstream and charged after through the same usage recorder, which writes its
// usage-log row (model `mcp:{server}`, the tool as upstream model, endpoint `mcp/tools/call`), its ledger
// charge and its statistics behind the answer. A call refused before it goes upstream (a rate limit, an
// empty wallet or quota, an unknown or disallowed tool) is logged too, at zero cost, as the relay logs a
// refused model call (src/relay/record-refusal.ts).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { CachedKey } from '../accounts/key-index.ts';
import type { Accounting, Reservation } from '../metering/accounting.ts';
import type { RateLimiter, RateLimitSubject } from '../metering/rate-limiter.ts';
import type { UsageRecorder } from '../metering/usage-recorder.ts';
import { rateLimitSubjects } from '../metering/admission.ts';
import { computeCostMicros, type ModelPricing } from '../metering/pricing.ts';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { GatewayError, gatewayError, insufficientQuota, rateLimited, sharedStateUnavailable } from '../gateway-errors.ts';
import { MCP_SERVER_NAME } from '../config/mcp-server-schema.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';
import type { McpUpstream } from './mcp-upstream.ts';
import type { McpPayloadLog } from './mcp-payload-log.ts';
import { redactedPayload } from './mcp-redact.ts';

export interface McpMeterDeps {
  accounting: Accounting;
  rateLimiter: RateLimiter;
  recorder: UsageRecorder;
  payloads: McpPayloadLog;
}

interface AdmittedToolCall {
  requestId: string;
  startedAt: number;
  key: CachedKey;
  upstream: McpUpstream;
  tool: string;
  reservation: Reservation | null;
  pricing: ModelPricing | undefined;
}

/** One billed request at the server's per-call price. */
const ONE_CALL: Usage = { ...emptyUsage(), requests: 1 };

function mcpCallModel(server: string): string {
  return `mcp:${server}`;
}

/** A server's own limit is a rate-limit subject of its own, counted with the key's and its owner's (in Redis across instances). */
const SERVER_SUBJECT = 'mcp-server:';

function serverSubject(upstream: McpUpstream): RateLimitSubject {
  return { id: `${SERVER_SUBJECT}${upstream.id}`, rpm: upstream.rpmLimit, tpm: null };
}

function serverRateLimited(upstream: McpUpstream, retryAfterSeconds: number) {
  return gatewayError('GW_ERR_MCP_SERVER_RATE_LIMITED', {
    message: `The MCP server '${upstream.name}' takes at most ${upstream.rpmLimit} tool calls a minute through the gateway. Try again in ${retryAfterSeconds} s.`,
    code: 'mcp_server_rate_limited',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

export async function admitToolCall(deps: McpMeterDeps, key: CachedKey, upstream: McpUpstream, tool: string): Promise<AdmittedToolCall> {
  const requestId = `mcp_${randomBytes(12).toString('base64url')}`;
  const pricing: ModelPricing | undefined = upstream.pricePerCallMicros > 0 ? { perRequest: upstream.pricePerCallMicros } : undefined;
  try {
    const verdict = await deps.rateLimiter.admit(upstream.rpmLimit === null ? rateLimitSubjects(key) : [...rateLimitSubjects(key), serverSubject(upstream)], Date.now());
    if (!verdict.allowed) {
      if (verdict.subject?.startsWith(SERVER_SUBJECT)) throw serverRateLimited(upstream, verdict.retryAfterSeconds!);
      throw rateLimited(verdict.limit!, verdict.subject!, verdict.retryAfterSeconds!);
    }
    let reservation: Reservation | null = null;
    if (pricing) {
      const estimate = computeCostMicros(pricing, ONE_CALL, key.groupRatioPpm);
      reservation = await deps.accounting.reserve({ userId: key.userId, keyId: key.id, keyQuotaMicros: key.quotaMicros, memberCap: key.memberCap }, estimate);
      if (!reservation) {
        const walletLeft = await deps.accounting.balance(key.userId);
        throw insufficientQuota(walletLeft < estimate || walletLeft <= 0 ? 'wallet' : 'key');
      }
    }
    return { requestId, startedAt: performance.now(), key, upstream, tool, reservation, pricing };
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw sharedStateUnavailable(error);
  }
}

interface ToolCallOutcome {
  /** 200 for an answer (a tool's own isError result included), else the gateway error's status. */
  status: number;
  error: string | null;
  errorCode: GatewayErrorCode | null;
  arguments: unknown;
  result: unknown;
}

/** Settles and logs the call; returns its cost in micro-USD. */
export function recordToolCall(deps: McpMeterDeps, call: AdmittedToolCall, outcome: ToolCallOutcome): number {
  const cost = deps.recorder.record({
    requestId: call.requestId,
    key: call.key,
    model: mcpCallModel(call.upstream.name),
    upstreamModel: call.tool,
    channelId: null,
    inboundFormat: 'mcp',
    endpoint: 'mcp/tools/call',
    stream: false,
    status: outcome.status,
    latencyMs: performance.now() - call.startedAt,
    ttftMs: null,
    usage: outcome.status === 200 ? ONE_CALL : { ...emptyUsage(), requests: 0 },
    error: outcome.error,
    errorCode: outcome.errorCode,
    attempts: null,
    reservation: call.reservation,
    pricing: call.pricing,
  });
  if (call.upstream.logPayloads) {
    deps.payloads.add({
      request_id: call.requestId,
      created_at: Date.now(),
      arguments_json: redactedPayload(outcome.arguments, call.upstream),
      result_json: redactedPayload(outcome.result, call.upstream),
    });
  }
  return cost;
}

/** As the relay's refusals (record-refusal.ts): longer names are no tool anyone serves; errors are the gateway's own. */
const MAX_LOGGED_NAME = 128;
const MAX_LOGGED_ERROR = 1000;

/**
 * The HTTP requests (the transport's `requestInfo`, one object per POST, shared by the messages of a
 * JSON-RPC batch) that have logged a refused tool call. A refused model call is one HTTP request and one
 * row; a POST may carry a batch of up to 100 tool calls, so only its first refusal is logged and a refused
 * flood grows the log no faster than refused model calls would. (Rows past twice the metering backlog's
 * bound are dropped by the recorder, for both.)
 */
const requestsWithARefusal = new WeakSet<object>();

interface RefusedToolCall {
  key: CachedKey;
  /** The server the client's name points to, whether it exists or not; null when the name names none. */
  server: string | null;
  /** The tool as the client named it (without the server's prefix when the name has one). */
  tool: string;
  /** Set only when the call named a tool the key may call (then refused by a limit): its log_payloads applies. */
  upstream: McpUpstream | undefined;
  arguments: unknown;
  startedAt: number;
  /** The transport's `requestInfo` of the HTTP request that carried the call. */
  httpRequest: object | undefined;
}

/**
 * Logs a tool call refused before it went upstream: its error and error code, zero cost, no request
 * counted. The row names what the client sent (`mcp:{server}`, the tool), so an unknown tool and one the
 * key may not call give the same row, as they give the same answer. Arguments only for a server that keeps
 * payloads and a tool the key may call.
 */
export function recordRefusedToolCall(deps: McpMeterDeps & { logger: Pick<Logger, 'warn'> }, call: RefusedToolCall, error: unknown): void {
  const status = error instanceof GatewayError ? error.status : 500;
  // No key to log it under (a session whose key stopped working answers as if it did not exist).
  if (status === 401 || (error instanceof GatewayError && error.gatewayCode === 'GW_ERR_MCP_SESSION_NOT_FOUND')) return;
  if (call.httpRequest) {
    if (requestsWithARefusal.has(call.httpRequest)) return;
    requestsWithARefusal.add(call.httpRequest);
  }
  const named = call.server !== null && MCP_SERVER_NAME.test(call.server);
  const requestId = `mcp_${randomBytes(12).toString('base64url')}`;
  try {
    deps.recorder.record({
      requestId,
      key: call.key,
      model: named ? mcpCallModel(call.server!).slice(0, MAX_LOGGED_NAME) : 'mcp',
      upstreamModel: (named ? call.tool : call.server === null ? call.tool : `${call.server}__${call.tool}`).slice(0, MAX_LOGGED_NAME),
      channelId: null,
      inboundFormat: 'mcp',
      endpoint: 'mcp/tools/call',
      stream: false,
      status,
      latencyMs: performance.now() - call.startedAt,
      overheadMs: performance.now() - call.startedAt,
      ttftMs: null,
      usage: { ...emptyUsage(), requests: 0 },
      error: (error instanceof Error ? error.message : String(error)).slice(0, MAX_LOGGED_ERROR),
      errorCode: error instanceof GatewayError ? error.gatewayCode : 'GW_ERR_INTERNAL',
      attempts: null,
      reservation: null,
      pricing: undefined,
    });
    if (call.upstream?.logPayloads) {
      deps.payloads.add({ request_id: requestId, created_at: Date.now(), arguments_json: redactedPayload(call.arguments, call.upstream), result_json: null });
    }
  } catch (recordError) {
    // Never let logging a refusal turn it into another error.
    deps.logger.warn({ err: recordError, requestId }, 'logging a refused MCP tool call failed');
  }
}
