// The watcher of an OpenAI chat (or legacy completions) answer passed through unchanged. Chunks are
// forwarded without parsing most of them: only a chunk carrying usage (and a continuation's opening chunk)
// is parsed on the way. The delivered text is read from the kept chunks only when it is needed (no usage
// reported, or a continuation), so the common path costs a string check per event.
// The gateway asks every upstream stream for usage (stream_options); a client that did not ask never sees
// the usage-only chunk, and a client that did gets one even from an upstream that sent none (a server that
// ignores stream_options): the counted usage it is billed by, just before [DONE].
import type { AnswerReading, AnswerWatcher, WatchContext } from '../../hub/hub-format.ts';
import type { HubUsage } from '../../hub/hub-response.ts';
import { MalformedEventError, type SseEvent } from '../../hub/hub-stream.ts';
import { estimateTextTokens } from '../../metering/estimate-tokens.ts';
import { readUsageObjectFromTail } from '../../metering/read-usage-from-tail.ts';
import { formatSseEvent } from '../shared/sse-text.ts';
import { hubUsageToOpenai, openaiUsageToHub } from './openai-chat-usage.ts';

const TERMINATOR = '[DONE]';

type ChunkShape = { usage?: unknown; choices?: { finish_reason?: unknown; text?: unknown; delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] } }[] };

export function openaiChatWatcher(ctx: WatchContext): AnswerWatcher {
  return new OpenaiChatWatcher(ctx);
}

/** One per open stream: a class, so the stream keeps one object and its kept chunks, not closures. */
class OpenaiChatWatcher implements AnswerWatcher {
  private readonly ctx: WatchContext;
  private usage: HubUsage | null = null;
  private sawDone = false;
  private first = true;
  private readonly kept: string[] = [];

  constructor(ctx: WatchContext) {
    this.ctx = ctx;
  }

  whole(text: string): { reported: HubUsage | null; outputTokens(): number; reading(): AnswerReading } {
    return { reported: openaiUsageToHub(readUsageObjectFromTail(text)), outputTokens: () => estimateTextTokens(wholeAnswerText(text)), reading: () => wholeReading(text) };
  }

  event(event: SseEvent): string {
    const data = event.data;
    if (data === TERMINATOR) {
      this.sawDone = true;
      return this.countedUsageChunk() + formatSseEvent(data);
    }
    // A cheap shape check catches truncated or garbled events without parsing every one.
    if (data.charCodeAt(0) !== 123 || data.charCodeAt(data.length - 1) !== 125) throw new MalformedEventError(`not JSON: ${data.slice(0, 80)}`);
    const opening = this.first;
    this.first = false;
    const continuing = this.ctx.continuing;
    if (data.includes('"usage":{') || (continuing && opening)) {
      let chunk: ChunkShape;
      try {
        chunk = JSON.parse(data) as ChunkShape;
      } catch {
        throw new MalformedEventError(`not JSON: ${data.slice(0, 80)}`);
      }
      if (chunk.usage) {
        this.usage = openaiUsageToHub(chunk.usage);
        // The usage-only chunk exists because the gateway asked for it; a client that did not ask never sees it.
        if (!this.ctx.clientWantsUsage && Array.isArray(chunk.choices) && chunk.choices.length === 0) return '';
      }
      // A continuation's opening role-only chunk would read as a second answer starting; the client has one.
      if (continuing && opening && isRoleOnlyChunk(chunk)) return '';
    }
    this.kept.push(data);
    return formatSseEvent(data, event.event);
  }

  /** A stream that ends without its terminator is finalised, so clients do not wait forever. */
  end(): string {
    return this.sawDone ? '' : this.countedUsageChunk() + formatSseEvent(TERMINATOR);
  }

  /** The usage chunk for a client that asked for one and got none from the upstream: the usage it is billed by. */
  private countedUsageChunk(): string {
    if (this.usage !== null || !this.ctx.clientWantsUsage || this.ctx.continuing || this.kept.length === 0) return '';
    const counted = this.ctx.usage();
    let head: { id?: unknown; object?: unknown; created?: unknown; model?: unknown } = {};
    try {
      head = JSON.parse(this.kept[0]!) as typeof head;
    } catch {
      // the chunk was forwarded as it came; the usage chunk is written without its names
    }
    return formatSseEvent(JSON.stringify({ id: head.id, object: head.object, created: head.created, model: head.model, choices: [], usage: hubUsageToOpenai(counted) }));
  }

  reported(): HubUsage | null {
    return this.usage;
  }

  outputTokens(): number {
    return estimateTextTokens(this.delivered().text);
  }

  delivered(): { text: string; toolCalls: boolean } {
    return readDelivered(this.kept);
  }

  /** Read from the kept chunks, only when a trace asks: the stream itself never parses them for it. */
  reading(): AnswerReading {
    const finishReasons: string[] = [];
    for (const data of this.kept) {
      if (!data.includes('"finish_reason":"')) continue;
      try {
        for (const choice of (JSON.parse(data) as ChunkShape).choices ?? []) if (typeof choice.finish_reason === 'string') finishReasons.push(choice.finish_reason);
      } catch {
        // forwarded as it came; it names no reason readable here
      }
    }
    return { finishReasons, text: readDelivered(this.kept).text };
  }
}

/** A whole chat or completions answer's finish reasons (one per choice) and its text. */
function wholeReading(text: string): AnswerReading {
  try {
    const answer = JSON.parse(text) as { choices?: { finish_reason?: unknown }[] };
    const finishReasons = (answer.choices ?? []).map((choice) => choice.finish_reason).filter((reason): reason is string => typeof reason === 'string');
    return { finishReasons, text: wholeAnswerText(text) };
  } catch {
    return { finishReasons: [], text: '' };
  }
}

/** The text (and whether tool calls were part of it) in the chunks a client has received. */
function readDelivered(chunks: string[]): { text: string; toolCalls: boolean } {
  let text = '';
  let toolCalls = false;
  for (const data of chunks) {
    let chunk: ChunkShape;
    try {
      chunk = JSON.parse(data) as ChunkShape;
    } catch {
      continue;
    }
    for (const choice of chunk.choices ?? []) {
      if (typeof choice.text === 'string') text += choice.text;
      const delta = choice.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      if (typeof delta?.reasoning_content === 'string') text += delta.reasoning_content;
      for (const toolCall of delta?.tool_calls ?? []) {
        toolCalls = true;
        text += String(toolCall.function?.arguments ?? '');
      }
    }
  }
  return { text, toolCalls };
}

function isRoleOnlyChunk(chunk: ChunkShape): boolean {
  const delta = chunk.choices?.[0]?.delta as { role?: unknown; content?: unknown; tool_calls?: unknown } | undefined;
  return delta !== undefined && typeof delta.role === 'string' && !delta.content && !delta.tool_calls;
}

/** Everything a whole chat or completions answer delivered: text, reasoning, tool names and arguments. */
function wholeAnswerText(text: string): string {
  type Choice = { text?: unknown; message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[] } };
  let delivered = '';
  try {
    const answer = JSON.parse(text) as { choices?: Choice[] };
    for (const choice of answer.choices ?? []) {
      if (typeof choice.text === 'string') delivered += choice.text;
      const message = choice.message;
      if (typeof message?.content === 'string') delivered += message.content;
      if (typeof message?.reasoning_content === 'string') delivered += message.reasoning_content;
      for (const call of message?.tool_calls ?? []) delivered += String(call.function?.name ?? '') + String(call.function?.arguments ?? '');
    }
  } catch {
    // not JSON: nothing readable was delivered
  }
  return delivered;
}

/** The client's chat body with the delivered text as a trailing assistant message to continue (vLLM's flags). */
export function openaiChatPrefillBody(body: Record<string, unknown>, prefill: string): Record<string, unknown> {
  const messages = [...(body.messages as unknown[]), { role: 'assistant', content: prefill }];
  return { ...body, messages, continue_final_message: true, add_generation_prompt: false };
}
