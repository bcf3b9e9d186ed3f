// What every attempt shares, whether it is the first on a route or a continuation after a cut: the call's
// context, and reading a stream up to its first output within the first-token timeout.
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { RelayHop } from './relay-hop.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall } from './relay-types.ts';
import type { SsePump } from './sse-pump.ts';
import type { ModelRoute } from './attempts-order.ts';

export interface AttemptContext {
  deps: RelayDeps;
  call: RelayCall;
  hop: RelayHop;
  routes: ModelRoute[];
}

/** Logs an upstream event the converter could not read (the pump skips it); holds only what it names. */
export function malformedEventLogger(deps: RelayDeps, call: RelayCall, channel: RoutedChannel): (error: Error) => void {
  return (error) => deps.logger.warn({ requestId: call.requestId, channel: channel.name, err: error.message }, 'skipped a malformed upstream event');
}

export class FirstTokenTimeout extends Error {}

/**
 * Reads until the converter has something for the client, or the stream ends (null when it said nothing).
 * One promise settled by the reads or the timer, not a race of an async loop against a timer promise: fewer
 * promise turns between the upstream's first chunk and the client's first byte. A read still pending after
 * the timeout fails when the pump stops; settling the promise again is a no-op, so nobody sees it.
 */
export function firstOutput(pump: SsePump, timeoutMs: number, signal: AbortSignal): Promise<{ text: string; done: boolean } | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new FirstTokenTimeout()), timeoutMs);
    const failed = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    const read = (): void => {
      let next: Promise<{ text: string; done: boolean }>;
      try {
        next = pump.next();
      } catch (error) {
        failed(error);
        return;
      }
      next.then((step) => {
        if (step.text || step.done) {
          clearTimeout(timer);
          resolve(step.text ? step : null);
        } else if (signal.aborted) {
          failed(signal.reason);
        } else {
          read();
        }
      }, failed);
    };
    read();
  });
}
