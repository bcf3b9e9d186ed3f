// Scripted behaviour of the upstream simulators, for chaos tests.
//
// `sim.script(step, …)` queues steps. Each request takes the next step (FIFO) and is shaped by it; once the
// queue is empty the default behaviour resumes. `sim.reset()` clears the queue (and the recorded requests).
// Every field is optional and they combine:
//   status, headers, body      answer with this status, these headers and this JSON body instead of the
//                              normal answer. Without `body`, a non-2xx status gets the provider's own error
//                              shape for it (OpenAI 429 rate_limit_exceeded, Anthropic 529 overloaded_error,
//                              Gemini 429 RESOURCE_EXHAUSTED, …). `headers` alone is added to a normal answer.
//   delayMs                    wait before sending the response headers (also before an auth error)
//   firstChunkDelayMs          (streams) wait between the headers and the first event
//   chunkDelayMs               (streams) wait between events, so they leave as separate packets
//   cutStreamAfterChunks: n    (streams) send n events, then destroy the socket (no terminator)
//   stallAfterChunks: n        (streams) send n events, then say nothing more but keep the socket open
//   malformedChunkAt: n        (streams) insert an event whose data is broken JSON before event n (0-based)
//   omitTerminator             (streams) end the body without `data: [DONE]` / `message_stop` / final chunk
//   omitUsage                  leave usage out: OpenAI `usage`; Anthropic `usage` of the message, of
//                              message_start and of message_delta; Gemini `usageMetadata`
//   reply                      the exact assistant text, instead of the derived one (no tool calls)
//   earlyHints                 send an interim 103 Early Hints response before the real one (after delayMs)
//   hangUp                     read the request, then close the connection without any answer (after
//                              delayMs, if given): the client sees the socket closed, no status
//   cachedTokens: n            report n of the prompt's tokens as read from cache (OpenAI and Responses
//                              `cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini `cachedContentTokenCount`)
//   cacheWriteTokens: n        report n of the prompt's tokens as written to cache (Anthropic
//                              `cache_creation_input_tokens`, OpenAI and Responses `cache_write_tokens`; Gemini has none)
//   toolCall: {name, arguments} answer with one call of the offered tool of that name with these arguments
//                              (Responses: a function of a namespace tool as `namespace.name`),
//                              whatever the prompt says (a coding agent's tool loop: "read this file"); the
//                              next request, carrying the tool's result, gets the usual `The tool said: <result>`.
//                              When the request offers no tool of that name the answer is a text saying so and
//                              naming the tools offered, so the test's failure shows what the client sent.
//   cacheWrite1hTokens: n      of those, n went to the one-hour cache (Anthropic and Vertex Claude
//                              `cache_creation.ephemeral_1h_input_tokens`, the rest ephemeral_5m; Bedrock
//                              `cacheDetails` [{ttl: "1h"}, {ttl: "5m"}]); the others have no such split
// An "event" is one SSE event as the provider sends it (an OpenAI chunk, an Anthropic typed event, a
// Gemini GenerateContentResponse); the terminator (`data: [DONE]`) is not counted.

export interface ScriptStep {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
  firstChunkDelayMs?: number;
  chunkDelayMs?: number;
  cutStreamAfterChunks?: number;
  stallAfterChunks?: number;
  malformedChunkAt?: number;
  omitTerminator?: boolean;
  omitUsage?: boolean;
  reply?: string;
  hangUp?: boolean;
  earlyHints?: boolean;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  toolCall?: ScriptedToolCall;
  cacheWrite1hTokens?: number;
}

export interface ScriptedToolCall { name: string; arguments: Record<string, unknown> }

/** The step of a request with no script: shared and frozen, so the default path allocates nothing. */
const DEFAULT_STEP: Readonly<ScriptStep> = Object.freeze({});

interface ScriptQueue {
  push(steps: ScriptStep[]): void;
  next(): Readonly<ScriptStep>;
  clear(): void;
}

export function createScriptQueue(): ScriptQueue {
  const steps: ScriptStep[] = [];
  return {
    push: (more) => void steps.push(...more),
    next: () => (steps.length === 0 ? DEFAULT_STEP : (steps.shift() as ScriptStep)),
    clear: () => void (steps.length = 0),
  };
}

/** True when the step changes how a stream is paced or cut, so events must be written one by one. */
export function stepShapesStream(step: Readonly<ScriptStep>): boolean {
  return step.firstChunkDelayMs !== undefined || step.chunkDelayMs !== undefined || step.cutStreamAfterChunks !== undefined
    || step.stallAfterChunks !== undefined || step.malformedChunkAt !== undefined;
}
