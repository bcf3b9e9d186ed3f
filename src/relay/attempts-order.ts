// Which route an attempt goes to next: the retry discipline of attempt-policy.ts applied to the call's
// candidates (each model of the fallback chain, its channels in routing order). The attempt loop asks for
// the next route and reports how each attempt ended; this file decides nothing about timing beyond the
// wait before a retry.
import type { CircuitBreakers } from '../routing/circuit-breaker.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { jitteredBackoff, RETRY_POLICY, type FailureKind } from './attempt-policy.ts';

export interface ModelRoute {
  model: string;
  channels: RoutedChannel[];
}

export interface Candidate {
  model: string;
  channel: RoutedChannel;
  /** Position in the flattened chain. */
  index: number;
}

export interface NextAttempt {
  candidate: Candidate;
  /** Wait this long first (a retry's backoff, a short Retry-After). */
  waitMs: number;
}

export interface AttemptOrder {
  /** The next route to try, or null when the call has none left. */
  next(): NextAttempt | null;
  /** A route to run beside a slow one (a hedge): the next candidate on another channel, never a retry. */
  nextForHedge(slow: Candidate): Candidate | null;
  /** How an attempt ended; shapes what next() returns. */
  failed(candidate: Candidate, failure: FailureKind, retryAfterMs: number | null): void;
  /** No more attempts (a final error). */
  stop(): void;
  /**
   * An attempt on this channel ended. Without a verdict on its health (`reported` false), a probe this
   * call holds is handed back for the next request (never someone else's probe); with one, the breaker
   * already moved on and the claim is simply dropped.
   */
  releaseProbe(channelId: number, reported?: boolean): void;
}

/**
 * Open circuits are skipped across the whole chain, fallback models included: while any candidate's
 * circuit is closed, a channel whose circuit is open is never tried. When every one is open the call
 * tries them all anyway (it is the probe) rather than failing without asking anyone.
 */
export function createAttemptOrder(routes: ModelRoute[], breakers: CircuitBreakers): AttemptOrder {
  return new ChainOrder(routes, breakers);
}

/**
 * A class with its sets made on first use: built for every call, and most calls take their first route,
 * so they should not pay for closures and three empty sets they never touch.
 */
class ChainOrder implements AttemptOrder {
  private readonly breakers: CircuitBreakers;
  private readonly candidates: Candidate[] = [];
  private readonly everyCircuitOpen: boolean;
  /** Channels out of this call: disabled for refused credentials. */
  private dead: Set<number> | null = null;
  private started = 0;
  /** The candidate last handed out by next(). */
  private position = -1;
  private retry: { waitMs: number } | null = null;
  private skipModel: string | null = null;
  private stopped = false;
  /** Candidates already retried once on the same channel: never a third time. */
  private retried: Set<number> | null = null;
  /** Channels whose half-open probe this call holds. */
  private probes: Set<number> | null = null;

  constructor(routes: ModelRoute[], breakers: CircuitBreakers) {
    this.breakers = breakers;
    const candidates = this.candidates;
    // Index loops, not for-of or every(): built for every call, whose iterators and closure were garbage.
    let everyCircuitOpen = true;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r]!;
      for (let c = 0; c < route.channels.length; c++) {
        const channel = route.channels[c]!;
        candidates.push({ model: route.model, channel, index: candidates.length });
        if (everyCircuitOpen && !breakers.isOpen(channel.id)) everyCircuitOpen = false;
      }
    }
    this.everyCircuitOpen = everyCircuitOpen;
  }

  private usable(candidate: Candidate, admit: boolean): boolean {
    const id = candidate.channel.id;
    if (this.dead?.has(id) || candidate.model === this.skipModel) return false;
    if (this.everyCircuitOpen) return true;
    if (!admit) return !this.breakers.isOpen(id);
    const wasOpen = this.breakers.state(id) === 'open';
    if (!this.breakers.admit(id)) return false;
    if (wasOpen) (this.probes ??= new Set()).add(id);
    return true;
  }

  private hasAnotherRoute(after: number): boolean {
    return this.candidates.some((candidate) => candidate.index > after && this.usable(candidate, false));
  }

  next(): NextAttempt | null {
    if (this.stopped || this.started >= RETRY_POLICY.maxAttempts) return null;
    const candidates = this.candidates;
    if (this.retry && this.position >= 0) {
      const again = candidates[this.position]!;
      const waitMs = this.retry.waitMs;
      this.retry = null;
      if (this.usable(again, true)) {
        this.started++;
        (this.retried ??= new Set()).add(this.position);
        return { candidate: again, waitMs };
      }
    }
    this.retry = null;
    for (let i = this.position + 1; i < candidates.length; i++) {
      this.position = i;
      if (this.usable(candidates[i]!, true)) {
        this.started++;
        return { candidate: candidates[i]!, waitMs: 0 };
      }
    }
    return null;
  }

  nextForHedge(slow: Candidate): Candidate | null {
    if (this.stopped || this.started >= RETRY_POLICY.maxAttempts) return null;
    const candidates = this.candidates;
    for (let i = Math.max(this.position, slow.index) + 1; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      if (candidate.channel.id === slow.channel.id) continue;
      this.position = i;
      if (this.usable(candidate, true)) {
        this.started++;
        this.retry = null;
        return candidate;
      }
    }
    return null;
  }

  failed(candidate: Candidate, failure: FailureKind, retryAfterMs: number | null): void {
    if (failure === 'credentials') (this.dead ??= new Set()).add(candidate.channel.id);
    if (failure === 'context-length') this.skipModel = candidate.model;
    // Only the latest route decides a retry; a hedge has already moved on past an older one.
    if (candidate.index !== this.position) return;
    if (this.retried?.has(candidate.index)) return;
    if (failure === 'transient') this.retry = { waitMs: jitteredBackoff() };
    else if (failure === 'rate-limited' && retryAfterMs !== null && retryAfterMs <= RETRY_POLICY.maxRetryAfterMs) this.retry = { waitMs: retryAfterMs };
    else if (failure === 'hung-up' && !this.hasAnotherRoute(candidate.index)) this.retry = { waitMs: 0 };
  }

  stop(): void {
    this.stopped = true;
  }

  releaseProbe(channelId: number, reported = false): void {
    if (this.probes?.delete(channelId) && !reported) this.breakers.release(channelId);
  }
}
