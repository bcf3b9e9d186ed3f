// The attempt loop's policies alone, against a fake dispatcher (no HTTP, no upstream): retries and
// failover (attempts-order.ts with attempt-policy.ts), hedging, the circuit breakers and disabling a channel
// whose credentials are refused. Each case scripts what each attempt on each channel does and reads which
// attempts the loop made, in order, and what it answered.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { gatewayError, upstreamTimeout, type GatewayError } from '../../src/gateway-errors.ts';
import { createCircuitBreakers, type CircuitBreakers } from '../../src/routing/circuit-breaker.ts';
import type { RoutedChannel } from '../../src/routing/routed-channel.ts';
import { runAttempts, type AttemptDispatcher } from '../../src/relay/attempts.ts';
import type { AttemptOutcome } from '../../src/relay/attempts-first-byte.ts';
import type { FailureKind } from '../../src/relay/attempt-policy.ts';
import { attemptRecord } from '../../src/relay/attempt-log.ts';
import type { RelayDeps } from '../../src/relay/relay-deps.ts';
import { newCallMeter, type RelayCall } from '../../src/relay/relay-types.ts';
import type { RelayHop } from '../../src/relay/relay-hop.ts';

type Step = { after?: number } & ({ ready: string } | { fail: FailureKind; retryAfterMs?: number } | { hang: true });

const channel = (id: number, name: string): RoutedChannel => ({ id, name, apiKeys: [`key-${name}`], provider: { forgetCredential: (key: string) => forgotten.push(key) } } as unknown as RoutedChannel);
const forgotten: string[] = [];

interface Run {
  tried: string[];
  disabled: string[];
  discarded: string[];
  aborted: string[];
  answer: string | GatewayError;
}

/** Runs the loop over `routes` with each channel's scripted attempts, in the order they are made. */
async function run(routes: { model: string; channels: RoutedChannel[] }[], script: Record<string, Step[]>, options: { breakers?: CircuitBreakers; hedgeAfterMs?: number } = {}): Promise<Run> {
  const result: Run = { tried: [], disabled: [], discarded: [], aborted: [], answer: '' };
  const deps = {
    logger: pino({ level: 'silent' }),
    breakers: options.breakers ?? createCircuitBreakers(),
    state: { current: { models: new Map() } },
    ...(options.hedgeAfterMs ? { hedgeAfterMs: options.hedgeAfterMs } : {}),
    disableChannel: async (disabled: RoutedChannel) => void result.disabled.push(disabled.name),
  } as unknown as RelayDeps;
  const call = { requestId: 'r', signal: new AbortController().signal, meter: newCallMeter() } as unknown as RelayCall;
  const dispatch: AttemptDispatcher = async (_context, target, model, signal) => {
    result.tried.push(`${target.name}/${model}`);
    const step = script[target.name]!.shift() ?? { fail: 'final' };
    const record = attemptRecord(model, target.name, null, 'fake', null, performance.now());
    if (step.after) await new Promise((resolve) => setTimeout(resolve, step.after));
    if (signal.aborted) {
      result.aborted.push(target.name);
      return { kind: 'cancelled', record };
    }
    if ('ready' in step) {
      return { kind: 'ready', record, commit: () => ({ kind: 'buffer', status: 200, headers: {}, body: step.ready }), discard: async () => void result.discarded.push(target.name) } satisfies AttemptOutcome;
    }
    if ('hang' in step) return new Promise<AttemptOutcome>(() => {});
    const error = step.fail === 'silent' ? upstreamTimeout(target.name, 'headers') : gatewayError('GW_ERR_UPSTREAM_STATUS', { status: 500, message: `${target.name} failed (${step.fail})` });
    return { kind: 'failure', record, failure: step.fail, error, retryAfterMs: step.retryAfterMs ?? null };
  };
  try {
    const answer = await runAttempts(deps, call, {} as RelayHop, routes, dispatch);
    result.answer = answer.body as string;
  } catch (error) {
    result.answer = error as GatewayError;
  }
  return result;
}

const a = channel(1, 'a');
const b = channel(2, 'b');
const c = channel(3, 'c');

describe('the attempt loop, around a fake dispatcher', () => {
  it('retries a transient failure once on the same channel, then fails over', async () => {
    const result = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'transient' }, { fail: 'transient' }], b: [{ ready: 'from b' }] });
    expect(result.tried).toEqual(['a/m', 'a/m', 'b/m']);
    expect(result.answer).toBe('from b');
  });

  it('fails over at once on a timeout, never waiting on the same route twice', async () => {
    const result = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'silent' }], b: [{ ready: 'from b' }] });
    expect(result.tried).toEqual(['a/m', 'b/m']);
  });

  it('honours a short Retry-After on the same channel, and fails over past a long one', async () => {
    const short = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'rate-limited', retryAfterMs: 30 }, { ready: 'from a' }], b: [] });
    expect(short.tried).toEqual(['a/m', 'a/m']);
    const long = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'rate-limited', retryAfterMs: 60_000 }], b: [{ ready: 'from b' }] });
    expect(long.tried).toEqual(['a/m', 'b/m']);
  });

  it('stops at a final refusal: the client gets it and nothing else is tried', async () => {
    const result = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'final' }], b: [{ ready: 'never' }] });
    expect(result.tried).toEqual(['a/m']);
    expect((result.answer as GatewayError).message).toBe('a failed (final)');
  });

  it('takes a prompt too long for one model to the next model of the chain, skipping its other channels', async () => {
    const result = await run([{ model: 'small', channels: [a, b] }, { model: 'large', channels: [c] }], { a: [{ fail: 'context-length' }], b: [{ ready: 'never' }], c: [{ ready: 'from c' }] });
    expect(result.tried).toEqual(['a/small', 'c/large']);
    expect(result.answer).toBe('from c');
  });

  it('disables a channel whose credentials are refused, forgets its tokens, and fails over', async () => {
    forgotten.length = 0;
    const result = await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'credentials' }], b: [{ ready: 'from b' }] });
    expect(result.disabled).toEqual(['a']);
    expect(forgotten).toEqual(['key-a']);
    expect(result.answer).toBe('from b');
  });

  it('gives up after the attempt budget, with the last error', async () => {
    const many = Array.from({ length: 8 }, (_, i) => channel(10 + i, `c${i}`));
    const script = Object.fromEntries(many.map((ch) => [ch.name, [{ fail: 'silent' as const }]]));
    const result = await run([{ model: 'm', channels: many }], script);
    expect(result.tried).toHaveLength(6);
    expect((result.answer as GatewayError).gatewayCode).toBe('GW_ERR_UPSTREAM_TIMEOUT');
  });

  it('skips a channel whose circuit opened, and lets one probe through after the cool-down', async () => {
    const breakers = createCircuitBreakers({ failureThreshold: 2, windowMs: 60_000, cooldownMs: 50 });
    await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'silent' }], b: [{ ready: 'b' }] }, { breakers });
    await run([{ model: 'm', channels: [a, b] }], { a: [{ fail: 'silent' }], b: [{ ready: 'b' }] }, { breakers });
    expect(breakers.state(a.id)).toBe('open');
    const skipped = await run([{ model: 'm', channels: [a, b] }], { a: [{ ready: 'a' }], b: [{ ready: 'b' }] }, { breakers });
    expect(skipped.tried).toEqual(['b/m']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const probe = await run([{ model: 'm', channels: [a, b] }], { a: [{ ready: 'a' }], b: [{ ready: 'b' }] }, { breakers });
    expect(probe.tried).toEqual(['a/m']);
    expect(breakers.state(a.id)).toBe('closed');
  });

  it('hedges a slow first byte on the next route: the first ready wins and the other is stopped upstream', async () => {
    const slowLoses = await run([{ model: 'm', channels: [a, b] }], { a: [{ ready: 'slow a', after: 300 }], b: [{ ready: 'fast b', after: 10 }] }, { hedgeAfterMs: 40 });
    expect(slowLoses.tried).toEqual(['a/m', 'b/m']);
    expect(slowLoses.answer).toBe('fast b');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(slowLoses.aborted).toEqual(['a']);
    // A first attempt that answers before the hedge delay is never hedged.
    const quick = await run([{ model: 'm', channels: [a, b] }], { a: [{ ready: 'quick a', after: 5 }], b: [{ ready: 'never' }] }, { hedgeAfterMs: 100 });
    expect(quick.tried).toEqual(['a/m']);
  });
});
