// The attempt loop: routes in the order attempts-order.ts gives (channels, then each fallback model, with
// the retry discipline of attempt-policy.ts), one attempt at a time, except when a model asks for a
// hedge: an attempt still without its first byte after `hedge_after_ms` gets a second one beside it on
// the next route, the first to be ready wins and the other is aborted upstream and never charged.
// Until the first byte reaches the client every failure can still be hidden by another route.
import { type GatewayError, gatewayError } from '../gateway-errors.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayHop } from './relay-hop.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { attemptOnce, type AttemptContext, type AttemptOutcome } from './attempts-first-byte.ts';
import { createAttemptOrder, type AttemptOrder, type Candidate, type ModelRoute } from './attempts-order.ts';
import { logAttempt } from './attempt-log.ts';
import type { RoutedChannel } from '../routing/routed-channel.ts';
import type { AttemptKind, AttemptTrace } from '../telemetry/call-trace.ts';
import { UpstreamWaits } from './upstream-wait.ts';
import { upstreamModelFor } from './resolve-candidates.ts';

export type { ModelRoute } from './attempts-order.ts';

interface Running {
  candidate: Candidate;
  /** How the attempt came about, for its span (tracing only; 'first' otherwise). */
  kind: AttemptKind;
  /** Its span, when the call is traced; made when it is dispatched. */
  trace: AttemptTrace | null;
  /** Aborts this attempt alone (hedging); null when the call's signal is used directly. */
  controller: AbortController | null;
  startsAt: number;
  hedged: boolean;
  settled: Promise<Settled>;
}

type Settled = { run: Running; outcome: AttemptOutcome } | { run: Running; thrown: unknown };

/**
 * One attempt on one route, up to what it has for the client: the dispatcher the policies here (retries
 * and fallbacks by attempts-order.ts, hedging, the circuit breakers, disabling a refused channel) are
 * composed around. The relay's is attemptOnce (a real upstream call); tests hand the loop a fake one.
 */
export type AttemptDispatcher = (context: AttemptContext, channel: RoutedChannel, model: string, signal: AbortSignal, trace?: AttemptTrace | null) => Promise<AttemptOutcome>;

/** The loop's state for one call, handed to launch() instead of closures over runAttempts' scope. */
interface AttemptLoop {
  context: AttemptContext;
  dispatch: AttemptDispatcher;
  hedging: boolean;
  running: Set<Running>;
  /** The candidate of the latest attempt, to tell a retry from a failover in a traced call; -1 before the first. */
  lastIndex: number;
}

export async function runAttempts(deps: RelayDeps, call: RelayCall, hop: RelayHop, routes: ModelRoute[], dispatch: AttemptDispatcher = attemptOnce): Promise<RelayResult> {
  const context: AttemptContext = { deps, call, hop, routes };
  const order = createAttemptOrder(routes, deps.breakers);
  const hedging = mayHedge(deps, routes);
  const running = new Set<Running>();
  const loop: AttemptLoop = { context, dispatch, hedging, running, lastIndex: -1 };
  let lastError: GatewayError | null = null;
  let finalError: GatewayError | null = null;
  /** The attempts' upstream waits, once more than one attempt has settled (most calls never make it). */
  let waits: UpstreamWaits | null = null;

  try {
    for (;;) {
      if (running.size === 0) {
        const next = order.next();
        if (!next) break;
        launch(loop, next.candidate, next.waitMs, call.trace ? attemptKind(loop, next.candidate) : 'first');
      }
      const event = await nextEvent(deps, running);
      if (event === 'hedge') {
        const [slow] = running;
        slow!.hedged = true;
        const partner = order.nextForHedge(slow!.candidate);
        if (partner) {
          deps.logger.info({ requestId: call.requestId, slow: slow!.candidate.channel.name, hedge: partner.channel.name, model: partner.model }, 'no first byte yet: hedging on the next route');
          launch(loop, partner, 0, 'hedge');
        }
        continue;
      }
      running.delete(event.run);
      const { channel } = event.run.candidate;
      if ('thrown' in event) {
        order.releaseProbe(channel.id);
        event.run.trace?.failed(null, event.thrown);
        throw event.thrown;
      }
      const { outcome } = event;
      // The loop logs each settled attempt's record, in the order they settle; a hedge that lost is not logged.
      if (outcome.record) logAttempt(call.meter, outcome.record);
      if (outcome.kind === 'ready') {
        deps.breakers.recordSuccess(channel.id);
        order.releaseProbe(channel.id, true);
        call.meter.upstreamWaitMs = waitedFor(waits, outcome, running);
        if (event.run.trace) call.trace!.serving(event.run.trace);
        return outcome.commit();
      }
      if (outcome.kind === 'cancelled') {
        order.releaseProbe(channel.id);
        event.run.trace?.cancelled();
        continue;
      }
      event.run.trace?.failed(outcome.record.status, outcome.error);
      if (outcome.sentAt !== undefined) {
        (waits ??= new UpstreamWaits()).add(outcome.sentAt, outcome.doneAt!);
        call.meter.upstreamWaitMs = waits.total();
      }
      lastError = outcome.error;
      const says = outcome.failure !== 'final' && outcome.failure !== 'context-length';
      if (says) deps.breakers.recordFailure(channel.id);
      order.releaseProbe(channel.id, says);
      if (outcome.failure === 'credentials') {
        // A cloud token revoked before its time must not outlive the channel's re-enabling.
        for (const key of channel.apiKeys) channel.provider.forgetCredential?.(key);
        await deps.disableChannel(channel, outcome.error.message);
      }
      if (outcome.failure === 'final') {
        // The request itself was refused: nothing new is tried, but a hedge already running may still answer.
        finalError = outcome.error;
        order.stop();
      }
      order.failed(event.run.candidate, outcome.failure, outcome.retryAfterMs);
    }
  } finally {
    // The winner returned, or the call failed: every other attempt stops upstream and is never charged.
    for (const run of running) stopRun(run, order);
  }
  throw finalError ?? lastError ?? gatewayError('GW_ERR_NO_ROUTE', { message: 'Every channel for this model is unavailable right now; try again shortly.', code: 'no_available_channel' });
}

/**
 * Whether the call may hedge: a model of its chain asks for it, and there is more than one route. (Loops in
 * functions of their own: a closure in runAttempts would give every call a context for its locals.)
 */
function mayHedge(deps: RelayDeps, routes: ModelRoute[]): boolean {
  let asked = false;
  let channels = 0;
  for (let i = 0; i < routes.length; i++) {
    if (hedgeAfterMs(deps, routes[i]!.model) > 0) asked = true;
    channels += routes[i]!.channels.length;
  }
  return asked && channels > 1;
}

/**
 * The upstream wait of a call whose attempt is ready: that attempt's own, when it was the only one; else the
 * union of every settled attempt's and of those still running (hedges) up to the winner's answer.
 */
function waitedFor(waits: UpstreamWaits | null, winner: { sentAt?: number; doneAt?: number }, running: Set<Running>): number {
  if (winner.sentAt === undefined) return waits ? waits.total() : 0;
  if (waits === null && running.size === 0) return winner.doneAt! - winner.sentAt;
  waits ??= new UpstreamWaits();
  waits.add(winner.sentAt, winner.doneAt!);
  for (const run of running) waits.add(run.startsAt, winner.doneAt!);
  return waits.total();
}

/** What a traced attempt is: the call's first, the same route again, another channel, or a fallback model. */
function attemptKind(loop: AttemptLoop, candidate: Candidate): AttemptKind {
  const last = loop.lastIndex;
  loop.lastIndex = candidate.index;
  if (last === -1) return 'first';
  if (candidate.index === last) return 'retry';
  return candidate.model === loop.context.call.model ? 'failover' : 'fallback';
}

/** An attempt still running when the call is decided: stopped upstream, its answer (if any) discarded, never charged. */
function stopRun(run: Running, order: AttemptOrder): void {
  run.trace?.cancelled();
  run.controller?.abort(new Error('another route answered first'));
  void run.settled.then((settled) => {
    if ('outcome' in settled && settled.outcome.kind === 'ready') return settled.outcome.discard();
    return undefined;
  }).catch(() => {}).finally(() => order.releaseProbe(run.candidate.channel.id));
}

/** Starts an attempt (after `waitMs`) and adds it to the running ones. */
function launch(loop: AttemptLoop, candidate: Candidate, waitMs: number, kind: AttemptKind): void {
  const call = loop.context.call;
  const controller = loop.hedging ? new AbortController() : null;
  const signal = controller ? AbortSignal.any([call.signal, controller.signal]) : call.signal;
  const run: Running = { candidate, kind, trace: null, controller, startsAt: performance.now() + waitMs, hedged: false, settled: undefined as never };
  run.settled = settle(loop, run, signal, waitMs);
  loop.running.add(run);
}

/** The attempt's outcome, or what it threw; never rejects. */
async function settle(loop: AttemptLoop, run: Running, signal: AbortSignal, waitMs: number): Promise<Settled> {
  try {
    if (waitMs > 0) await sleep(waitMs, signal);
    const { channel, model } = run.candidate;
    const trace = loop.context.call.trace;
    if (trace) run.trace = trace.attempt(run.kind, channel, model, upstreamModelFor(channel, model));
    return { run, outcome: await loop.dispatch(loop.context, channel, model, signal, run.trace) };
  } catch (thrown) {
    if (!loop.context.call.signal.aborted && signal.aborted) return { run, outcome: { kind: 'cancelled' } };
    return { run, thrown };
  }
}

/** The next attempt to settle, or 'hedge' when the only one running has waited long enough for a partner. */
function nextEvent(deps: RelayDeps, running: Set<Running>): Promise<Settled | 'hedge'> {
  const only = running.size === 1 ? running.values().next().value! : null;
  const delay = only && only.controller && !only.hedged ? hedgeAfterMs(deps, only.candidate.model) : 0;
  // The usual case, one attempt and no hedge: its own promise, without a race around it.
  if (delay <= 0 && only) return only.settled;
  const settled = [...running].map((run) => run.settled);
  if (delay <= 0) return Promise.race(settled);
  let timer: NodeJS.Timeout | undefined;
  const hedge = new Promise<'hedge'>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, only!.startsAt + delay - performance.now()), 'hedge');
  });
  return Promise.race([...settled, hedge]).finally(() => clearTimeout(timer));
}

/** The model's `hedge_after_ms`, else HEDGE_AFTER_MS; 0 means no hedge. */
function hedgeAfterMs(deps: RelayDeps, model: string): number {
  return deps.state.current.models.get(model)?.limits.hedgeAfterMs ?? deps.hedgeAfterMs ?? 0;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
