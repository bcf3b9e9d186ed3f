// A circuit breaker per channel: after repeated failures in a window it opens and the channel is skipped;
// after a cool-down one request probes it, and the first success closes it again.
export interface CircuitBreakerOptions {
  failureThreshold: number;
  windowMs: number;
  cooldownMs: number;
}

export const DEFAULT_BREAKER: CircuitBreakerOptions = { failureThreshold: 5, windowMs: 30_000, cooldownMs: 5_000 };

interface Circuit { failures: number[]; openedAt: number | null; probing: boolean }

export interface CircuitBreakers {
  /** True while the channel should be skipped. Claims the probe when the cool-down has passed. */
  isOpen(channelId: number, now?: number): boolean;
  recordSuccess(channelId: number): void;
  recordFailure(channelId: number, now?: number): void;
  state(channelId: number): 'closed' | 'open' | 'half-open';
  /** Applies a transition another instance observed. */
  forceOpen(channelId: number, openedAt: number): void;
  forceClose(channelId: number): void;
  /** Called on this instance's own transitions, to share them. */
  onTransition?: (channelId: number, state: 'open' | 'closed', at: number) => void;
}

export function createCircuitBreakers(options: CircuitBreakerOptions = DEFAULT_BREAKER): CircuitBreakers {
  const circuits = new Map<number, Circuit>();
  const circuit = (id: number) => {
    let found = circuits.get(id);
    if (!found) {
      found = { failures: [], openedAt: null, probing: false };
      circuits.set(id, found);
    }
    return found;
  };
  const breakers: CircuitBreakers = {
    isOpen(id, now = Date.now()) {
      const found = circuits.get(id);
      if (!found || found.openedAt === null) return false;
      if (now - found.openedAt < options.cooldownMs || found.probing) return true;
      found.probing = true; // this request is the probe
      return false;
    },
    recordSuccess(id) {
      const found = circuits.get(id);
      if (!found) return;
      circuits.delete(id);
      if (found.openedAt !== null) breakers.onTransition?.(id, 'closed', Date.now());
    },
    recordFailure(id, now = Date.now()) {
      const found = circuit(id);
      if (found.probing) {
        // The probe failed: stay open for another cool-down.
        found.openedAt = now;
        found.probing = false;
        breakers.onTransition?.(id, 'open', now);
        return;
      }
      found.failures = found.failures.filter((at) => now - at < options.windowMs);
      found.failures.push(now);
      if (found.failures.length >= options.failureThreshold && found.openedAt === null) {
        found.openedAt = now;
        breakers.onTransition?.(id, 'open', now);
      }
    },
    forceOpen(id, openedAt) {
      const found = circuit(id);
      found.openedAt = Math.max(found.openedAt ?? 0, openedAt);
      found.probing = false;
    },
    forceClose(id) {
      circuits.delete(id);
    },
    state(id) {
      const found = circuits.get(id);
      if (!found || found.openedAt === null) return 'closed';
      return found.probing ? 'half-open' : 'open';
    },
  };
  return breakers;
}
