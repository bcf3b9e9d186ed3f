// A circuit breaker per channel: after repeated failures in a window it opens and the channel is skipped;
// after a cool-down one request probes it (half-open), and the probe's success closes it again.
//
// Reading the state (isOpen) never changes it: the relay claims the probe (admit) only right before it
// really sends the attempt, and hands it back (release) when the attempt ended without a verdict (the
// client left, a hedge lost, the request itself was refused). A probe claimed and never sent would keep
// the circuit open for good.
interface CircuitBreakerOptions {
  failureThreshold: number;
  windowMs: number;
  cooldownMs: number;
}

const DEFAULT_BREAKER: CircuitBreakerOptions = { failureThreshold: 5, windowMs: 30_000, cooldownMs: 5_000 };

/** A probe that never reported (a lost promise) stops blocking others after this long. */
const PROBE_EXPIRY_MS = 10 * 60_000;

interface Circuit { failures: number[]; openedAt: number | null; probeSince: number | null }

export interface CircuitBreakers {
  /** True while the channel should be skipped: open and cooling down, or its probe is in flight. */
  isOpen(channelId: number, now?: number): boolean;
  /**
   * Right before an attempt: true when it may go. A circuit past its cool-down admits exactly one
   * request, the probe, until that probe reports (recordSuccess / recordFailure) or is released.
   */
  admit(channelId: number, now?: number): boolean;
  /** The attempt admitted ended without saying anything about the channel's health. */
  release(channelId: number): void;
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
      found = { failures: [], openedAt: null, probeSince: null };
      circuits.set(id, found);
    }
    return found;
  };
  const probeInFlight = (found: Circuit, now: number) => found.probeSince !== null && now - found.probeSince < PROBE_EXPIRY_MS;
  const breakers: CircuitBreakers = {
    isOpen(id, now = Date.now()) {
      const found = circuits.get(id);
      if (!found || found.openedAt === null) return false;
      return now - found.openedAt < options.cooldownMs || probeInFlight(found, now);
    },
    admit(id, now = Date.now()) {
      const found = circuits.get(id);
      if (!found || found.openedAt === null) return true;
      if (now - found.openedAt < options.cooldownMs || probeInFlight(found, now)) return false;
      found.probeSince = now; // this request is the probe
      return true;
    },
    release(id) {
      const found = circuits.get(id);
      if (found) found.probeSince = null;
    },
    recordSuccess(id) {
      const found = circuits.get(id);
      if (!found) return;
      circuits.delete(id);
      if (found.openedAt !== null) breakers.onTransition?.(id, 'closed', Date.now());
    },
    recordFailure(id, now = Date.now()) {
      const found = circuit(id);
      if (found.openedAt !== null) {
        // The probe failed (or a request admitted before the circuit opened): another full cool-down.
        found.openedAt = now;
        found.probeSince = null;
        breakers.onTransition?.(id, 'open', now);
        return;
      }
      found.failures = found.failures.filter((at) => now - at < options.windowMs);
      found.failures.push(now);
      if (found.failures.length >= options.failureThreshold) {
        found.openedAt = now;
        found.failures = [];
        breakers.onTransition?.(id, 'open', now);
      }
    },
    forceOpen(id, openedAt) {
      const found = circuit(id);
      found.openedAt = Math.max(found.openedAt ?? 0, openedAt);
      found.probeSince = null;
    },
    forceClose(id) {
      circuits.delete(id);
    },
    state(id) {
      const found = circuits.get(id);
      if (!found || found.openedAt === null) return 'closed';
      return found.probeSince !== null ? 'half-open' : 'open';
    },
  };
  return breakers;
}
