// The breaker's states with an explicit clock: open after the threshold, one probe after the cool-down,
// and a probe that is looked at, or released without a verdict, never keeps the circuit open for good.
import { describe, expect, it } from 'vitest';
import { createCircuitBreakers } from '../../src/routing/circuit-breaker.ts';

const options = { failureThreshold: 3, windowMs: 10_000, cooldownMs: 1_000 };

describe('circuit breaker', () => {
  it('opens after the threshold within the window, admits one probe after the cool-down, closes on its success', () => {
    const breakers = createCircuitBreakers(options);
    breakers.recordFailure(1, 0);
    breakers.recordFailure(1, 100);
    expect(breakers.admit(1, 200)).toBe(true);
    breakers.recordFailure(1, 200);
    expect(breakers.state(1)).toBe('open');
    expect(breakers.admit(1, 900)).toBe(false);
    expect(breakers.isOpen(1, 1300)).toBe(false); // looking does not claim the probe…
    expect(breakers.isOpen(1, 1300)).toBe(false);
    expect(breakers.admit(1, 1300)).toBe(true); // …admitting does, once
    expect(breakers.admit(1, 1301)).toBe(false);
    expect(breakers.isOpen(1, 1301)).toBe(true);
    breakers.recordSuccess(1);
    expect(breakers.state(1)).toBe('closed');
    expect(breakers.admit(1, 1302)).toBe(true);
  });

  it('keeps the circuit open for another cool-down when the probe fails', () => {
    const breakers = createCircuitBreakers(options);
    for (const at of [0, 1, 2]) breakers.recordFailure(1, at);
    expect(breakers.admit(1, 1500)).toBe(true);
    breakers.recordFailure(1, 1600);
    expect(breakers.admit(1, 2000)).toBe(false);
    expect(breakers.admit(1, 2700)).toBe(true);
  });

  it('hands a released probe to the next request', () => {
    const breakers = createCircuitBreakers(options);
    for (const at of [0, 1, 2]) breakers.recordFailure(1, at);
    expect(breakers.admit(1, 1500)).toBe(true);
    breakers.release(1);
    expect(breakers.admit(1, 1501)).toBe(true);
  });

  it('forgets failures outside the window', () => {
    const breakers = createCircuitBreakers(options);
    breakers.recordFailure(1, 0);
    breakers.recordFailure(1, 1);
    breakers.recordFailure(1, 20_000);
    expect(breakers.state(1)).toBe('closed');
  });

  it('tells other instances of its transitions and applies theirs', () => {
    const breakers = createCircuitBreakers(options);
    const seen: string[] = [];
    breakers.onTransition = (id, state) => seen.push(`${id}:${state}`);
    for (const at of [0, 1, 2]) breakers.recordFailure(7, at);
    breakers.recordSuccess(7);
    expect(seen).toEqual(['7:open', '7:closed']);
    breakers.forceOpen(8, Date.now());
    expect(breakers.isOpen(8)).toBe(true);
    breakers.forceClose(8);
    expect(breakers.isOpen(8)).toBe(false);
  });
});
