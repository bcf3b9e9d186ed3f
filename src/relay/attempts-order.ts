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
  const candidates: Candidate[] = [];
  for (const route of routes) {
    for (const channel of route.channels) candidates.push({ model: route.model, channel, index: candidates.length });
  }
  const everyCircuitOpen = candidates.every((candidate) => breakers.isOpen(candidate.channel.id));
  /** Channels out of this call: disabled for refused credentials. */
  const dead = new Set<number>();
  let started = 0;
  let position = -1; // the candidate last handed out by next()
  let retry: { waitMs: number } | null = null;
  let skipModel: string | null = null;
  let stopped = false;
  /** Candidates already retried once on the same channel: never a third time. */
  const retried = new Set<number>();
  /** Channels whose half-open probe this call holds. */
  const probes = new Set<number>();

  const usable = (candidate: Candidate, admit: boolean): boolean => {
    const id = candidate.channel.id;
    if (dead.has(id) || candidate.model === skipModel) return false;
    if (everyCircuitOpen) return true;
    if (!admit) return !breakers.isOpen(id);
    const wasOpen = breakers.state(id) === 'open';
    if (!breakers.admit(id)) return false;
    if (wasOpen) probes.add(id);
    return true;
  };
  const hasAnotherRoute = (after: number) => candidates.some((candidate) => candidate.index > after && usable(candidate, false));

  return {
    next() {
      if (stopped || started >= RETRY_POLICY.maxAttempts) return null;
      if (retry && position >= 0) {
        const again = candidates[position]!;
        const waitMs = retry.waitMs;
        retry = null;
        if (usable(again, true)) {
          started++;
          retried.add(position);
          return { candidate: again, waitMs };
        }
      }
      retry = null;
      for (let i = position + 1; i < candidates.length; i++) {
        position = i;
        if (usable(candidates[i]!, true)) {
          started++;
          return { candidate: candidates[i]!, waitMs: 0 };
        }
      }
      return null;
    },
    nextForHedge(slow) {
      if (stopped || started >= RETRY_POLICY.maxAttempts) return null;
      for (let i = Math.max(position, slow.index) + 1; i < candidates.length; i++) {
        const candidate = candidates[i]!;
        if (candidate.channel.id === slow.channel.id) continue;
        position = i;
        if (usable(candidate, true)) {
          started++;
          retry = null;
          return candidate;
        }
      }
      return null;
    },
    failed(candidate, failure, retryAfterMs) {
      if (failure === 'credentials') dead.add(candidate.channel.id);
      if (failure === 'context-length') skipModel = candidate.model;
      // Only the latest route decides a retry; a hedge has already moved on past an older one.
      if (candidate.index !== position) return;
      if (retried.has(candidate.index)) return;
      if (failure === 'transient') retry = { waitMs: jitteredBackoff() };
      else if (failure === 'rate-limited' && retryAfterMs !== null && retryAfterMs <= RETRY_POLICY.maxRetryAfterMs) retry = { waitMs: retryAfterMs };
      else if (failure === 'hung-up' && !hasAnotherRoute(candidate.index)) retry = { waitMs: 0 };
    },
    stop() {
      stopped = true;
    },
    releaseProbe(channelId, reported = false) {
      if (probes.delete(channelId) && !reported) breakers.release(channelId);
    },
  };
}
