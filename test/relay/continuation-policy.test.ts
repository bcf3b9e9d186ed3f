// The mid-stream continuation policy alone, against a fake segment opener (no upstream): which routes a
// broken stream is mended on, in what order, by a prefill continuation or a replayed restart, and when it
// is not mended at all.
import { describe, expect, it } from 'vitest';
import { createCircuitBreakers } from '../../src/routing/circuit-breaker.ts';
import type { RoutedChannel } from '../../src/routing/routed-channel.ts';
import { continueElsewhere, type SegmentOpener } from '../../src/relay/attempts-continuation.ts';
import type { AttemptContext } from '../../src/relay/attempt-first-output.ts';
import type { CommittedStream } from '../../src/relay/committed-stream.ts';
import type { RelayHop, StreamConverter } from '../../src/relay/relay-hop.ts';

const channel = (id: number, name: string, supportsPrefill: boolean): RoutedChannel => ({ id, name, supportsPrefill } as unknown as RoutedChannel);
const a = channel(1, 'a', true);
const b = channel(2, 'b', true);
const c = channel(3, 'c', false);
const d = channel(4, 'd', true);

function failedOn(on: RoutedChannel, delivered: { text: string; toolCalls: boolean }, model = 'm'): CommittedStream {
  return { channel: on, model, upstreamModel: model, converter: { delivered: () => delivered } as StreamConverter, pump: {} as never, first: null, ttftMs: 0, overheadMs: 0 };
}

interface Tried { channel: string; model: string; kind: string; prefilled: boolean }

async function mend(failed: CommittedStream, routes: { model: string; channels: RoutedChannel[] }[], answers: Record<string, 'ok' | 'no'>, options: { open?: number[]; body?: Record<string, unknown>; continuable?: boolean } = {}) {
  const breakers = createCircuitBreakers({ failureThreshold: 1, windowMs: 60_000, cooldownMs: 60_000 });
  for (const id of options.open ?? []) breakers.recordFailure(id);
  const hop = { stream: () => ({}) as StreamConverter, ...(options.continuable === false ? {} : { continuation: () => ({ prefilled: true }) as unknown as RelayHop }) } as unknown as RelayHop;
  const context = {
    deps: { breakers },
    call: { inboundFormat: 'openai-chat', body: options.body ?? { messages: [] } },
    hop,
    routes,
  } as unknown as AttemptContext;
  const tried: Tried[] = [];
  const open: SegmentOpener = async (_context, usedHop, target, model, kind) => {
    tried.push({ channel: target.name, model, kind, prefilled: (usedHop as unknown as { prefilled?: boolean }).prefilled === true });
    return answers[`${target.name}:${kind}`] === 'ok' ? failedOn(target, { text: '', toolCalls: false }, model) : null;
  };
  const mended = await continueElsewhere(context, failed, open);
  return { tried, mended };
}

describe('continuing a broken stream elsewhere', () => {
  it('continues on the next channel that takes a prefill, with the text delivered so far', async () => {
    const { tried, mended } = await mend(failedOn(a, { text: 'Once upon', toolCalls: false }), [{ model: 'm', channels: [a, b] }], { 'b:continued': 'ok' });
    expect(tried).toEqual([{ channel: 'b', model: 'm', kind: 'continued', prefilled: true }]);
    expect(mended?.channel.name).toBe('b');
    expect(mended?.prefill).toBe('Once upon');
  });

  it('restarts without the prefill where one is refused or not taken, holding back what the client has', async () => {
    const { tried, mended } = await mend(failedOn(a, { text: 'Once upon', toolCalls: false }), [{ model: 'm', channels: [a, b, c] }], { 'b:continued': 'no', 'b:restarted': 'no', 'c:restarted': 'ok' });
    expect(tried.map((t) => `${t.channel}:${t.kind}`)).toEqual(['b:continued', 'b:restarted', 'c:restarted']);
    expect(tried.at(-1)!.prefilled).toBe(false);
    expect(mended?.replay?.prefix).toBe('Once upon');
  });

  it('goes on to the fallback models, never back to the channel that broke or one whose circuit is open', async () => {
    const { tried } = await mend(failedOn(a, { text: 'Once', toolCalls: false }), [{ model: 'm', channels: [a, b] }, { model: 'fallback', channels: [a, d] }], { 'd:continued': 'ok' }, { open: [b.id] });
    expect(tried.map((t) => `${t.channel}/${t.model}:${t.kind}`)).toEqual(['d/fallback:continued']);
  });

  it('mends nothing that a continuation cannot carry: a half-delivered tool call, nothing delivered, several answers', async () => {
    const routes = [{ model: 'm', channels: [a, b] }];
    expect((await mend(failedOn(a, { text: '{"city":', toolCalls: true }), routes, { 'b:continued': 'ok' })).tried).toEqual([]);
    expect((await mend(failedOn(a, { text: '', toolCalls: false }), routes, { 'b:continued': 'ok' })).tried).toEqual([]);
    const several = await mend(failedOn(a, { text: 'Once', toolCalls: false }), routes, { 'b:continued': 'ok' }, { body: { messages: [], n: 2 } });
    expect(several.tried).toEqual([]);
    expect(several.mended).toBeNull();
  });

  it('restarts only, where the hop has no prefill continuation', async () => {
    const { tried } = await mend(failedOn(a, { text: 'Once', toolCalls: false }), [{ model: 'm', channels: [a, b] }], { 'b:restarted': 'ok' }, { continuable: false });
    expect(tried.map((t) => `${t.channel}:${t.kind}`)).toEqual(['b:restarted']);
  });
});
