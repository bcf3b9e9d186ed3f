// A JSON endpoint passed through to a channel that speaks it (embeddings, images, rerank, responses):
// the client's bytes go upstream with the model id mapped, and the answer comes back, metered by the
// endpoint's own usage reader.
import type { Operation } from '../../providers/provider-definition.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { Usage } from '../../metering/usage.ts';
import type { AnswerReading } from '../../hub/hub-format.ts';
import type { RelayCall } from '../relay-types.ts';
import type { RelayHop, StreamConverter } from '../relay-hop.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import type { AttemptUsage } from '../attempt-usage.ts';
import { getFormat } from '../../formats/index.ts';
import { speaksFamilyOf } from './api-family.ts';
import { rawBodyIsUnambiguous } from '../raw-body-keys.ts';
import type { ResponsesTurnSender } from '../../upstream/responses-upstream-sockets.ts';

interface JsonPassthroughSpec {
  operation: Operation;
  /** Which channels can take it; by default those of the client format's API family whose provider has the operation. */
  supports?(channel: RoutedChannel): boolean;
  /** Usage from the whole answer's text; `attempt` resolves a chat answer's reported usage (attempt-usage.ts). */
  usage(text: string, attempt: AttemptUsage): Usage;
  /** How a whole answer ended and its text, for the call's trace. */
  reading?(text: string): AnswerReading;
  /** Rewrites the answer for the client (a provider's dialect to the common shape). */
  transform?(text: string, channel: RoutedChannel): string;
  /** The upstream body; by default the client's with the model id mapped. */
  body?(upstreamModel: string, channel: RoutedChannel): string | Buffer;
  stream?(channel: RoutedChannel, attempt: AttemptUsage): StreamConverter;
  /** The upstream WebSocket a channel's call goes through instead of a POST (a Responses WebSocket turn), or null. */
  socket?(channel: RoutedChannel): ResponsesTurnSender | null;
}

export function openAIJsonPassthroughHop(call: RelayCall, spec: JsonPassthroughSpec): RelayHop {
  const client = getFormat(call.inboundFormat);
  return {
    supports: spec.supports ?? ((channel) => speaksFamilyOf(channel, client) && supportsOperation(channel, spec.operation)),
    request(channel, upstreamModel) {
      const shape = {
        path: operationPath(channel, spec.operation, upstreamModel),
        headers: { 'content-type': 'application/json' },
        body: spec.body ? spec.body(upstreamModel, channel) : withModel(call, upstreamModel),
      };
      const socket = spec.socket ? spec.socket(channel) : null;
      return socket === null ? shape : { ...shape, socket };
    },
    whole(text, channel, _sent, attempt) {
      const reading = spec.reading;
      return { body: spec.transform ? spec.transform(text, channel) : text, contentType: 'application/json', usage: spec.usage(text, attempt), ...(reading ? { reading: () => reading(text) } : {}) };
    },
    error: (channel, status, text, headers) => gatewayErrorFromUpstream(channel, status, text, headers),
    ...(spec.stream ? { stream: (channel: RoutedChannel, _sent: unknown, attempt: AttemptUsage) => spec.stream!(channel, attempt) } : {}),
  };
}

/** The client's bytes when the model id is unchanged (and they say what was parsed), else the body re-serialised with the upstream id. */
function withModel(call: RelayCall, upstreamModel: string): Buffer | string {
  if (upstreamModel === call.model && call.body.models === undefined && rawBodyIsUnambiguous(call.rawBody)) return call.rawBody;
  const { models: _fallbackList, ...rest } = call.body;
  return JSON.stringify({ ...rest, model: upstreamModel });
}
