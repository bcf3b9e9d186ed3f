// A stream converter built from two hub machines: the channel's events → hub parts → the client's events.
// It also watches the hub parts for usage and for the text delivered so far (for continuation). A
// continuation segment shares the client-side machine, so the client sees one coherent stream.
import { finishReasonName } from '../../hub/hub-response.ts';
import type { AnswerReading, FormatConverters } from '../../hub/hub-format.ts';
import type { HubStreamPart, SseEvent, StreamMachine, TextDeltaReader, TextDeltaWriter } from '../../hub/hub-stream.ts';
import type { GatewayError } from '../../gateway-errors.ts';
import type { Logger } from 'pino';
import type { AttemptUsage } from '../attempt-usage.ts';
import type { Usage } from '../../metering/usage.ts';
import { deliveredOutput, type DeliveredOutput } from '../../formats/shared/delivered-output.ts';
import type { StreamConverter } from '../relay-hop.ts';
import { formatSseEvent } from '../sse-pump.ts';

interface HubStreamConverter extends StreamConverter {
  /** The client-side machine, for a continuation segment to keep writing into. */
  readonly clientMachine: StreamMachine<HubStreamPart, SseEvent>;
}

interface HubStreamConverterOptions {
  upstream: FormatConverters;
  client: FormatConverters;
  requestModel: string;
  includeUsage: boolean;
  /** The client's request body, for client formats whose events repeat the request's settings (Responses). */
  requestBody: unknown;
  /** Resolves the reported usage into what the answer is billed by (and the client is shown). */
  usage: AttemptUsage;
  logger: Logger;
  /** Set for a continuation: this segment continues a stream the client already has. */
  continuing?: boolean;
  /** The earlier segment's client machine, when it was translated too, to keep writing into. */
  clientMachine?: StreamMachine<HubStreamPart, SseEvent>;
}

export function hubStreamConverter(options: HubStreamConverterOptions): HubStreamConverter {
  return new HubMachinesConverter(options);
}

/** One per open translated stream: a class, so the stream keeps one object rather than a set of closures. */
class HubMachinesConverter implements HubStreamConverter {
  readonly clientMachine: StreamMachine<HubStreamPart, SseEvent>;
  private readonly options: HubStreamConverterOptions;
  private readonly toHub: StreamMachine<SseEvent, HubStreamPart>;
  private reported: Usage | null = null;
  private readonly output: DeliveredOutput = deliveredOutput();
  private readonly finishReasons: string[] = [];
  /** The machines' fast lanes for text deltas, when both have one (hub-stream.ts); null otherwise. */
  private readonly textReader: TextDeltaReader | null;
  private readonly textWriter: TextDeltaWriter | null;

  constructor(options: HubStreamConverterOptions) {
    this.options = options;
    const onWarning = (warning: { feature: string; detail: string }) => options.logger.warn({ feature: warning.feature, detail: warning.detail }, 'stream conversion warning');
    this.toHub = options.upstream.streamToHubMachine({ onWarning });
    this.clientMachine = options.clientMachine ?? options.client.hubToStreamMachine({ requestModel: options.requestModel, includeUsage: options.includeUsage, onWarning, requestBody: options.requestBody });
    const reader = this.toHub as Partial<TextDeltaReader>;
    const writer = this.clientMachine as Partial<TextDeltaWriter>;
    const both = typeof reader.textDeltaOf === 'function' && typeof writer.textDeltaSse === 'function';
    this.textReader = both ? (reader as TextDeltaReader) : null;
    this.textWriter = both ? (writer as TextDeltaWriter) : null;
  }

  private readonly outputTokens = (): number => this.output.tokens();

  private render(parts: HubStreamPart[]): string {
    let out = '';
    for (let part of parts) {
      this.output.observe(part);
      if (part.type === 'finish') {
        this.finishReasons.push(finishReasonName(part.finishReason));
        // What the upstream left unreported is counted here, so the client's usage and the bill agree.
        const usage = this.options.usage.resolve(part.usage, this.outputTokens);
        this.reported = usage;
        part = { ...part, usage };
      }
      // A continuation's own start would read as a second message; the client already has one.
      if (this.options.continuing && part.type === 'start') continue;
      for (const event of this.clientMachine.push(part)) out += formatSseEvent(event.data, event.event);
    }
    return out;
  }

  /** The parsed event is handed on as it is: machines read only its `event` and `data`. */
  event(event: SseEvent): string {
    // Text deltas, most of a stream, go from one machine's fast lane to the other's without hub parts,
    // with the same result as the parts would have: delivered text observed, the same bytes written.
    const text = this.textReader?.textDeltaOf(event);
    if (text === undefined) return this.render(this.toHub.push(event));
    if (text === '') return '';
    const written = this.textWriter!.textDeltaSse(text);
    if (written === undefined) return this.render([{ type: 'text-delta', delta: text }]);
    this.output.observeText(text);
    return written;
  }

  end(): string {
    let out = this.render(this.toHub.end());
    for (const event of this.clientMachine.end()) out += formatSseEvent(event.data, event.event);
    return out;
  }

  failure(error: GatewayError): string {
    // The client's machine knows where its stream stands (Responses numbers its events and ends a started
    // response with response.failed); a machine that already ended falls back to the format's error event.
    const events = this.clientMachine.push({ type: 'error', error });
    const list = events.length > 0 ? events : [this.options.client.hubErrorToStreamEvent(error)];
    return list.map((event) => formatSseEvent(event.data, event.event)).join('');
  }

  usage(): Usage {
    return this.reported ?? this.options.usage.resolve(null, this.outputTokens);
  }

  reading(): AnswerReading {
    return { finishReasons: [...this.finishReasons], text: this.output.text };
  }

  delivered(): { text: string; toolCalls: boolean } {
    return { text: this.output.text, toolCalls: this.output.toolCalls };
  }
}
