// Counting a prompt's tokens without generating: Anthropic's POST /v1/messages/count_tokens and Gemini's
// :countTokens. Exact where a channel of the model speaks that format (its own counting endpoint, through
// the channel's key and model mapping); otherwise, or when every such channel fails, counted locally with
// the gateway's tokenizer and marked as an estimate. Counting is free, like upstream, so nothing is reserved
// or charged; every count still leaves its usage-log row, at zero cost and zero tokens (the counted prompt is
// not used, so it must not add to the key's token statistics or TPM limits), naming the channel that counted
// exactly. It counts against the key's requests-per-minute limit, so a client cannot use it to flood the
// upstream. Refused counts are logged by the routes (record-refusal.ts), as other refusals are.
import { GatewayError, rateLimited, sharedStateUnavailable } from '../gateway-errors.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import type { WireFormat } from '../providers/provider-definition.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import { rateLimitSubjects } from '../metering/admission.ts';
import { emptyUsage } from '../metering/usage.ts';
import { DEFAULT_TIMEOUTS } from './attempt-policy.ts';
import type { RelayDeps } from './relay-deps.ts';
import { resolveCandidates, upstreamModelFor } from './resolve-candidates.ts';
import { gatewayErrorFromUpstream } from './upstream-error.ts';
import { getFormat } from '../formats/index.ts';
import { speaksFamilyOf } from './hops/api-family.ts';

/** At most this many channels are asked before falling back to the local count. */
const MAX_EXACT_ATTEMPTS = 2;
/** Counting is quick upstream; a slow counter is not waited on for long. */
const COUNT_HEADERS_TIMEOUT_MS = 30_000;
/** Upstream answers that mean the request itself is wrong: the client must see them, not an estimate. */
const CLIENT_FAULTS = new Set([400, 413, 422]);

export interface CountTokensRequest {
  key: CachedKey;
  model: string;
  signal: AbortSignal;
  /** The wire format whose channels count exactly. */
  exactFormat: WireFormat;
  /** The upstream body for a channel, with the model mapped. */
  upstreamBody(upstreamModel: string): string;
  /** Headers from the client a same-format call forwards (anthropic-version, anthropic-beta). */
  forwardHeaders?: Record<string, string>;
  /** The prompt in `exactFormat`'s request shape, counted locally by that format's request facts. */
  promptBody: Record<string, unknown>;
  /** What the usage-log row names: the call's request id, route and inbound format, and when it began. */
  log: { requestId: string; endpoint: string; inboundFormat: WireFormat; startedAt: number };
}

type TokenCount =
  | { exact: true; channel: string; body: Record<string, unknown> }
  | { exact: false; tokens: number };

export async function countPromptTokens(deps: RelayDeps, request: CountTokensRequest): Promise<TokenCount> {
  // Same access rules as generating: 403 for a model the key may not use, 404 for one nobody serves.
  const channels = resolveCandidates(deps.state.current.routing, request.key, request.model);
  await admitCount(deps, request.key);
  const exact = channels.filter((channel) => speaksFamilyOf(channel, getFormat(request.exactFormat)) && supportsOperation(channel, 'count-tokens') && !deps.breakers.isOpen(channel.id));
  for (const channel of exact.slice(0, MAX_EXACT_ATTEMPTS)) {
    const counted = await countOn(deps, request, channel);
    if (counted) {
      recordCount(deps, request, channel);
      return { exact: true, channel: channel.name, body: counted };
    }
  }
  const tokens = getFormat(request.exactFormat).requestFacts.promptTokens(request.promptBody);
  recordCount(deps, request, null);
  return { exact: false, tokens };
}

/** The count's usage-log row: status 200, no tokens, no cost; the channel when one counted exactly. */
function recordCount(deps: RelayDeps, request: CountTokensRequest, channel: RoutedChannel | null): void {
  deps.recorder.record({
    requestId: request.log.requestId,
    key: request.key,
    model: request.model,
    upstreamModel: channel ? upstreamModelFor(channel, request.model) : null,
    channelId: channel?.id ?? null,
    inboundFormat: request.log.inboundFormat,
    endpoint: request.log.endpoint,
    stream: false,
    status: 200,
    latencyMs: performance.now() - request.log.startedAt,
    ttftMs: null,
    usage: { ...emptyUsage(), requests: 0 },
    error: null,
    attempts: null,
    reservation: null,
    pricing: undefined,
  });
}

async function countOn(deps: RelayDeps, request: CountTokensRequest, channel: RoutedChannel): Promise<Record<string, unknown> | null> {
  const upstreamModel = upstreamModelFor(channel, request.model);
  try {
    const response = await sendUpstream(deps.agents, {
      channel,
      path: operationPath(channel, 'count-tokens', upstreamModel),
      headers: { 'content-type': 'application/json', ...request.forwardHeaders },
      body: request.upstreamBody(upstreamModel),
      signal: request.signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? COUNT_HEADERS_TIMEOUT_MS,
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
    const text = await response.text();
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const body = JSON.parse(text) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
      throw new Error('the answer is not a JSON object');
    }
    if (CLIENT_FAULTS.has(response.statusCode)) throw gatewayErrorFromUpstream(channel, response.statusCode, text, response.headers);
    deps.logger.warn({ channel: channel.name, status: response.statusCode }, 'token counting failed upstream; trying another channel or counting locally');
    return null;
  } catch (error) {
    if (error instanceof GatewayError || request.signal.aborted) throw error;
    deps.logger.warn({ channel: channel.name, err: (error as Error).message }, 'token counting failed upstream; trying another channel or counting locally');
    return null;
  }
}

async function admitCount(deps: RelayDeps, key: CachedKey): Promise<void> {
  let verdict;
  try {
    verdict = await deps.rateLimiter.admit(rateLimitSubjects(key), Date.now());
  } catch (error) {
    throw sharedStateUnavailable(error);
  }
  if (!verdict.allowed) throw rateLimited(verdict.limit!, verdict.subject!, verdict.retryAfterSeconds!);
}
