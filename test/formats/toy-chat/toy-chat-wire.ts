// The toy-chat wire format, a fifth format that lives in test/ (issue 27: a format and a provider added at
// run time, in one line). A minimal JSON chat protocol, in full:
//   request   POST {base}/toy/{tenant}/chat, header x-toy-key
//             { model, system?, turns: [{ who: 'user' | 'bot', text }], max_words?, stop?: string[], stream? }
//   answer    { id, model, reply, stop: 'done' | 'limit', usage?: { in, out, cached?, cache_write? } }
//             (`in` is the whole prompt, cached and cache-written words included)
//   stream    server-sent events, data only: { begin: { id, model } }, then { piece } per word, then
//             { stop, usage? } last (no terminator line)
//   error     any status with { trouble: { kind, says } }; kinds: bad_request, too_long (the prompt is over
//             the model's context), no_key, busy, broken, overloaded; mid-stream, an event { trouble }
import type { HubFinishReason, HubUsage } from '../../../src/hub/hub-response.ts';
import { asObject, countField, knownCounts } from '../../../src/formats/shared/usage-fields.ts';

export interface ToyTurn { who: 'user' | 'bot'; text: string }
export interface ToyRequest { model: string; system?: string; turns: ToyTurn[]; max_words?: number; stop?: string[]; stream?: boolean }
export interface ToyUsage { in: number; out: number; cached?: number; cache_write?: number }
export interface ToyAnswer { id: string; model: string; reply: string; stop: ToyStop; usage?: ToyUsage }
export type ToyStop = 'done' | 'limit';
export interface ToyTrouble { kind: string; says: string }
export type ToyEvent = { begin: { id: string; model: string } } | { piece: string } | { stop: ToyStop; usage?: ToyUsage } | { trouble: ToyTrouble };

export function toyFinishReason(stop: unknown): HubFinishReason {
  if (stop === 'done') return { unified: 'stop', raw: 'done' };
  if (stop === 'limit') return { unified: 'length', raw: 'limit' };
  return { unified: 'other', raw: typeof stop === 'string' ? stop : null };
}

export function hubFinishReasonToToy(reason: HubFinishReason): ToyStop {
  return reason.unified === 'length' ? 'limit' : 'done';
}

/** The toy's usage → the hub's, with only the counts it carries (an absent count is unknown). */
export function toyUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  return knownCounts<HubUsage>({
    inputTokens: countField(usage.in),
    cachedInputTokens: countField(usage.cached),
    cacheWriteTokens: countField(usage.cache_write),
    outputTokens: countField(usage.out),
  });
}

export function hubUsageToToy(usage: HubUsage): ToyUsage {
  return {
    in: usage.inputTokens ?? 0,
    out: usage.outputTokens ?? 0,
    ...(usage.cachedInputTokens ? { cached: usage.cachedInputTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_write: usage.cacheWriteTokens } : {}),
  };
}
