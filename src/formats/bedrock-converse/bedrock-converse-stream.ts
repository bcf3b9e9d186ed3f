// ConverseStream events ⇄ hub stream parts. The relay decodes the binary event-stream framing
// (application/vnd.amazon.eventstream, src/relay/aws-event-stream-pump.ts) into one SseEvent per message:
// `event` is the message's `:event-type` (or `:exception-type`), `data` its JSON payload. The usage comes
// last, in `metadata`, after `messageStop`; so the hub's finish part is written when metadata arrives.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
import {
  defaultGenerateId,
  machineToTransformStream,
  parseEventJson,
  type HubStreamPart,
  type HubToStreamContext,
  type SseEvent,
  type StreamMachine,
  type StreamToHubContext,
} from '../../hub/hub-stream.ts';
import { asObject } from '../shared/usage-fields.ts';
import { converseToolUseId } from './bedrock-converse-content.ts';
import { converseExceptionEventToHub, hubErrorToConverseStreamEvent, isConverseExceptionEvent } from './bedrock-converse-error.ts';
import { hubFinishReasonToConverse, mapConverseStopReason } from './bedrock-converse-finish-reason.ts';
import { converseUsageToHub, hubUsageToConverse } from './bedrock-converse-usage.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function createConverseStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> {
  let done = false;
  let stopReason: string | null = null;
  // Content block index → the hub's tool-call index, for toolUse blocks.
  const toolForBlock = new Map<number, number>();
  const finish = (usage: unknown): HubStreamPart[] => {
    done = true;
    return [{ type: 'finish', finishReason: mapConverseStopReason(stopReason), usage: converseUsageToHub(usage) }];
  };

  return {
    push(event) {
      if (done) return [];
      const json = parseEventJson(event, ctx.onWarning);
      if (json === undefined) return [];
      if (isConverseExceptionEvent(event.event)) {
        done = true;
        return [{ type: 'error', error: converseExceptionEventToHub(event.event!, json) }];
      }
      const body = asObject(json) ?? {};
      const blockIndex = typeof body.contentBlockIndex === 'number' ? body.contentBlockIndex : 0;
      switch (event.event) {
        case 'messageStart':
          return [{ type: 'start', id: (ctx.generateId ?? (() => defaultGenerateId('msg')))(), model: '' }];
        case 'contentBlockStart': {
          const toolUse = asObject(asObject(body.start)?.toolUse);
          if (!toolUse) return [];
          const index = toolForBlock.size;
          toolForBlock.set(blockIndex, index);
          return [{ type: 'tool-call-start', index, id: String(toolUse.toolUseId ?? defaultGenerateId()), name: String(toolUse.name ?? '') }];
        }
        case 'contentBlockDelta': {
          const delta = asObject(body.delta) ?? {};
          const toolInput = text(asObject(delta.toolUse)?.input);
          const reasoning = asObject(delta.reasoningContent);
          if (text(delta.text)) return [{ type: 'text-delta', delta: text(delta.text)! }];
          if (toolInput !== undefined) {
            const index = toolForBlock.get(blockIndex);
            return index === undefined || toolInput === '' ? [] : [{ type: 'tool-call-delta', index, argumentsDelta: toolInput }];
          }
          if (reasoning) {
            if (text(reasoning.text)) return [{ type: 'reasoning-delta', delta: text(reasoning.text)! }];
            if (text(reasoning.signature)) return [{ type: 'reasoning-delta', delta: '', signature: text(reasoning.signature)!, signatureFamily: 'anthropic' }];
            if (text(reasoning.redactedContent)) return [{ type: 'reasoning-delta', delta: '', redactedData: text(reasoning.redactedContent)! }];
          }
          return [];
        }
        case 'contentBlockStop': {
          const index = toolForBlock.get(blockIndex);
          return index === undefined ? [] : [{ type: 'tool-call-end', index }];
        }
        case 'messageStop':
          stopReason = text(body.stopReason) ?? null;
          return [];
        case 'metadata':
          return finish(body.usage);
        default:
          ctx.onWarning?.({ type: 'dropped', feature: `event ${event.event ?? ''}`, detail: 'skipped a ConverseStream event the gateway does not know.' });
          return [];
      }
    },
    // A stream cut after messageStop (no metadata) still reports how it finished; its usage is unknown.
    end: () => (!done && stopReason !== null ? finish(null) : []),
  };
}

export function converseStreamToHub(ctx: StreamToHubContext = {}): TransformStream<SseEvent, HubStreamPart> {
  return machineToTransformStream(createConverseStreamToHubMachine(ctx));
}

/** Writes ConverseStream's sequence: messageStart, blocks (toolUse blocks opened by contentBlockStart), messageStop, metadata. */
export function createHubToConverseStreamMachine(_ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> {
  let started = false;
  let ended = false;
  let nextIndex = 0;
  let open: { kind: 'text' | 'reasoning' | 'tool'; index: number } | undefined;
  const ev = (type: string, body: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify(body) });
  const begin = (out: SseEvent[]) => {
    if (!started) out.push(ev('messageStart', { role: 'assistant' }));
    started = true;
  };
  const close = (out: SseEvent[]) => {
    if (open) out.push(ev('contentBlockStop', { contentBlockIndex: open.index }));
    open = undefined;
  };
  const openBlock = (out: SseEvent[], kind: 'text' | 'reasoning'): number => {
    if (open?.kind !== kind) {
      close(out);
      open = { kind, index: nextIndex++ };
    }
    return open.index;
  };

  return {
    push(part) {
      if (ended) return [];
      const out: SseEvent[] = [];
      begin(out);
      switch (part.type) {
        case 'start':
          break;
        case 'text-delta':
          if (part.delta) out.push(ev('contentBlockDelta', { contentBlockIndex: openBlock(out, 'text'), delta: { text: part.delta } }));
          break;
        case 'reasoning-delta': {
          const index = openBlock(out, 'reasoning');
          if (part.delta) out.push(ev('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text: part.delta } } }));
          if (part.signature) out.push(ev('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: signatureForClient(part.signature, part.signatureFamily, 'anthropic') } } }));
          if (part.redactedData) out.push(ev('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { redactedContent: part.redactedData } } }));
          break;
        }
        case 'tool-call-start':
          close(out);
          open = { kind: 'tool', index: nextIndex++ };
          out.push(ev('contentBlockStart', { contentBlockIndex: open.index, start: { toolUse: { toolUseId: converseToolUseId(part.id), name: part.name } } }));
          break;
        case 'tool-call-delta':
          if (open?.kind === 'tool') out.push(ev('contentBlockDelta', { contentBlockIndex: open.index, delta: { toolUse: { input: part.argumentsDelta } } }));
          break;
        case 'tool-call-end':
          close(out);
          break;
        case 'finish':
          close(out);
          ended = true;
          out.push(ev('messageStop', { stopReason: hubFinishReasonToConverse(part.finishReason) }));
          out.push(ev('metadata', { usage: hubUsageToConverse(part.usage), metrics: { latencyMs: 0 } }));
          break;
        case 'error':
          ended = true;
          out.push(hubErrorToConverseStreamEvent(part.error));
          break;
      }
      return out;
    },
    end: () => [],
  };
}

export function hubToConverseStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent> {
  return machineToTransformStream(createHubToConverseStreamMachine(ctx));
}
