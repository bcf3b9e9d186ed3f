// The watcher of a format whose streams always carry usage (Anthropic, Gemini, Bedrock, Responses): every
// event goes to the client unchanged and through the format's own stream machine, whose hub parts give the
// usage and the delivered output. A request for several answers (Gemini candidateCount) gets them all; the
// hub reading sees the first, so the others are read apart (SeveralAnswers.laterAnswersText) and counted too.
import type { AnswerReading, AnswerWatcher, FormatConverters, StreamCloser, WatchContext } from '../../hub/hub-format.ts';
import { finishReasonName, type HubUsage } from '../../hub/hub-response.ts';
import { MalformedEventError, type HubStreamPart, type SseEvent, type StreamMachine } from '../../hub/hub-stream.ts';
import { estimateHubResponseTokens, estimateTextTokens } from '../../metering/estimate-tokens.ts';
import { deliveredOutput, type DeliveredOutput } from './delivered-output.ts';
import { formatSseEvent } from './sse-text.ts';

export function hubMachineWatcher(format: FormatConverters, ctx: WatchContext): AnswerWatcher {
  return new HubMachineWatcher(format, ctx);
}

/** The reader of the answers after the first, when the call asked for several; null (nothing to read) otherwise. */
function laterAnswersReader(format: FormatConverters, body: Record<string, unknown>): ((json: unknown) => string) | null {
  const several = format.severalAnswers;
  if (several?.laterAnswersText === undefined || several.asked(body) === 1) return null;
  return several.laterAnswersText;
}

/** One per open stream: a class, so the stream keeps one object rather than closures. */
class HubMachineWatcher implements AnswerWatcher {
  private readonly format: FormatConverters;
  private readonly ctx: WatchContext;
  private machine: StreamMachine<SseEvent, HubStreamPart> | null = null;
  private closer: StreamCloser | null | undefined;
  private readonly laterAnswers: ((json: unknown) => string) | null;
  private readonly output: DeliveredOutput = deliveredOutput();
  /** The answers after the first, as delivered: each event parsed a second time, only when several were asked. */
  private readonly later: string[] = [];
  private usage: HubUsage | null = null;
  private sawFinish = false;
  private readonly finishReasons: string[] = [];

  constructor(format: FormatConverters, ctx: WatchContext) {
    this.format = format;
    this.ctx = ctx;
    this.laterAnswers = laterAnswersReader(format, ctx.body);
  }

  whole(text: string): { reported: HubUsage | null; outputTokens(): number; reading(): AnswerReading } {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { reported: null, outputTokens: () => estimateTextTokens(text), reading: () => ({ finishReasons: [], text: '' }) };
    }
    const hub = this.format.responseToHub(json);
    const laterAnswers = this.laterAnswers;
    return {
      reported: hub.usage,
      outputTokens: () => estimateHubResponseTokens(hub) + (laterAnswers === null ? 0 : estimateTextTokens(laterAnswers(json))),
      reading: () => ({ finishReasons: [finishReasonName(hub.finishReason)], text: hub.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }),
    };
  }

  private observe(parts: HubStreamPart[]): void {
    for (const part of parts) {
      this.output.observe(part);
      if (part.type === 'finish') {
        this.usage = part.usage;
        this.sawFinish = true;
        this.finishReasons.push(finishReasonName(part.finishReason));
      }
    }
  }

  event(event: SseEvent): string {
    const data = event.data;
    // A broken event is skipped (and logged by the pump); the rest of the stream goes on.
    if (data.charCodeAt(0) !== 123 || data.charCodeAt(data.length - 1) !== 125) throw new MalformedEventError(`not JSON: ${data.slice(0, 80)}`);
    // Built on the first event: a whole answer never needs them.
    if (this.machine === null) {
      this.machine = this.format.streamToHubMachine({ onWarning: (warning) => this.ctx.onWarning(warning.detail) });
      this.closer = this.format.streamCloser?.() ?? null;
    }
    // The parsed event is handed on as it is: machines and closers read only its `event` and `data`.
    this.observe(this.machine.push(event));
    if (this.laterAnswers !== null) {
      const text = this.laterAnswers(parsedOrNull(data));
      if (text.length > 0) this.later.push(text);
    }
    this.closer?.observe(event);
    return formatSseEvent(data, event.event);
  }

  end(): string {
    if (this.machine === null) return '';
    this.observe(this.machine.end());
    // A stream cut short of its terminator is finished here, with the usage counted so far.
    const closing = this.closer?.close(this.ctx.usage().outputTokens) ?? [];
    let out = '';
    for (const event of closing) out += formatSseEvent(event.data, event.event);
    return out;
  }

  reported(): HubUsage | null {
    return this.usage;
  }

  outputTokens(): number {
    return this.output.tokens() + (this.later.length === 0 ? 0 : estimateTextTokens(this.later.join('')));
  }

  delivered(): { text: string; toolCalls: boolean } {
    return { text: this.output.text, toolCalls: this.output.toolCalls || this.sawFinish };
  }

  reading(): AnswerReading {
    return { finishReasons: [...this.finishReasons], text: this.output.text };
  }
}

/** An event's JSON, or null for one that only looked like JSON (the machine has skipped it already). */
function parsedOrNull(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
