// Chat to a channel that speaks the client's own format: the identity case of the exchange. The client's
// body goes upstream with only the model id mapped (and the format's stream usage option added, so the
// upstream reports usage), the client's version headers win over the gateway's defaults, and the answer
// comes back as it is, watched by the format's own watcher (FormatConverters.watch) for usage, delivered
// output and a missing terminator. Usage is resolved by the attempt (attempt-usage.ts), errors are read by
// the channel's format (upstream-error.ts): nothing here knows which format it passes through.
import type { Logger } from 'pino';
import type { AnswerWatcher, FormatConverters, WatchContext } from '../../hub/hub-format.ts';
import type { Usage } from '../../metering/usage.ts';
import type { GatewayError } from '../../gateway-errors.ts';
import type { Operation } from '../../providers/provider-definition.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { UpstreamErrorHeaders } from '../../hub/hub-format.ts';
import type { RelayCall } from '../relay-types.ts';
import type { RelayHop, StreamConverter, UpstreamCallShape, WholeAnswer } from '../relay-hop.ts';
import { WatchedStream } from './watched-stream.ts';
import type { AttemptUsage } from '../attempt-usage.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import { rawBodyIsUnambiguous } from '../raw-body-keys.ts';
import { streamUsageOptionOf, type StreamUsageOption } from './stream-usage-option.ts';
import type { ClientWarnings } from '../client-warnings.ts';

interface PassthroughChatOptions {
  call: RelayCall;
  /** The client's format, which is the channel's. */
  format: FormatConverters;
  logger: Logger;
  /** The operations sent to: the format's chat operations, or legacy completions' for both. */
  operations?: { whole: Operation; stream: Operation };
  /** Where the changes made to the body for a same-format channel are told to the client, when one answers. */
  warnings?: ClientWarnings;
  /** Those changes (an Anthropic body without another provider's thinking), one line each. */
  changes?: readonly string[];
}

export function passthroughChatHop(options: PassthroughChatOptions): RelayHop {
  return new PassthroughChatHop(options, null);
}

/** A class, not an object of closures: one per call, kept while its stream is open; methods cost nothing per call. */
class PassthroughChatHop implements RelayHop {
  private readonly options: PassthroughChatOptions;
  private readonly operations: { whole: Operation; stream: Operation };
  /** The fields that make the upstream report usage in a stream (the format's declaration), or null. */
  private readonly usageOption: StreamUsageOption | null;
  /** For a continuation: the text already delivered, sent as an assistant prefill. */
  private readonly prefill: string | null;

  constructor(options: PassthroughChatOptions, prefill: string | null) {
    this.options = options;
    this.operations = options.operations ?? options.format.chatOperations;
    this.usageOption = streamUsageOptionOf(options.format);
    this.prefill = prefill;
  }

  supports(channel: RoutedChannel): boolean {
    return channel.chatFormat === this.options.format && supportsOperation(channel, this.operations.whole);
  }

  request(channel: RoutedChannel, upstreamModel: string): UpstreamCallShape {
    const { call, format } = this.options;
    return {
      path: operationPath(channel, call.stream ? this.operations.stream : this.operations.whole, upstreamModel),
      // The client's own version and beta headers win over the gateway's defaults on a passthrough.
      headers: { 'content-type': 'application/json', ...call.forwardHeaders },
      body: this.prefill === null ? upstreamBody(call, format, upstreamModel, this.usageOption) : this.continuationBody(upstreamModel, this.prefill),
    };
  }

  whole(text: string, _channel: RoutedChannel, _sent: UpstreamCallShape, usage: AttemptUsage): WholeAnswer {
    this.options.warnings?.answered(this.options.changes ?? []);
    const read = this.watcher(usage, false).whole(text);
    return { body: text, contentType: 'application/json', usage: usage.resolve(read.reported, read.outputTokens), reading: read.reading };
  }

  error(channel: RoutedChannel, status: number, text: string, headers?: UpstreamErrorHeaders): GatewayError {
    return gatewayErrorFromUpstream(channel, status, text, headers);
  }

  stream(_channel: RoutedChannel, _sent: UpstreamCallShape, usage: AttemptUsage): StreamConverter {
    this.options.warnings?.answered(this.options.changes ?? []);
    return new WatchedStream(this.options.format, usage, (resolved) => this.watcher(usage, true, resolved));
  }

  /** The same call continued elsewhere after a cut, for a format whose upstreams continue a prefill. */
  get continuation(): ((deliveredText: string) => RelayHop) | undefined {
    if (this.options.format.prefillBody === undefined || this.operations !== this.options.format.chatOperations) return undefined;
    return (deliveredText) => new PassthroughChatHop(this.options, (this.prefill ?? '') + deliveredText);
  }

  private watcher(usage: AttemptUsage, streamed: boolean, resolved?: () => Usage): AnswerWatcher {
    const { call, format, logger } = this.options;
    const context: WatchContext = {
      body: call.body,
      // Whether the client asked for the usage event itself: read only for streams.
      clientWantsUsage: !streamed || this.usageOption === null || this.usageOption.askedBy(call.body),
      continuing: this.prefill !== null,
      usage: resolved ?? (() => usage.resolve(null, () => 0)),
      onWarning: (detail) => logger.warn({ requestId: call.requestId, detail }, 'skipped an upstream event'),
    };
    return format.watch(context);
  }

  /** The original request with the delivered text as a trailing assistant message to continue; it always streams. */
  private continuationBody(upstreamModel: string, prefill: string): string {
    const { call, format } = this.options;
    const { models: _fallbackList, ...rest } = call.body;
    const body = format.prefillBody!({ ...rest, model: upstreamModel }, prefill);
    return JSON.stringify(this.usageOption === null ? body : this.usageOption.mergeInto(body));
  }
}

/**
 * The client's bytes unless the model id or the stream usage option must change, or they are ambiguous
 * (raw-body-keys.ts); a format whose model is in the URL keeps its body as it is.
 */
function upstreamBody(call: RelayCall, format: FormatConverters, upstreamModel: string, usageOption: StreamUsageOption | null): Buffer | string {
  const needsUsageOption = call.stream && usageOption !== null && !usageOption.askedBy(call.body);
  if (format.modelIn === 'path' && !needsUsageOption) return call.rawBody;
  const unchangedModel = format.modelIn === 'path' || (upstreamModel === call.model && call.body.models === undefined && rawBodyIsUnambiguous(call.rawBody));
  if (unchangedModel && !needsUsageOption) return call.rawBody;
  if (unchangedModel && usageOption!.absentFrom(call.body)) {
    // Append the fields before the closing brace: no re-serialisation of a possibly large body.
    const end = call.rawBody.lastIndexOf(0x7d);
    return Buffer.concat([call.rawBody.subarray(0, end), usageOption!.appendBytes]);
  }
  const { models: _fallbackList, ...rest } = call.body;
  const body: Record<string, unknown> = format.modelIn === 'path' ? rest : { ...rest, model: upstreamModel };
  return JSON.stringify(needsUsageOption ? usageOption!.mergeInto(body) : body);
}
