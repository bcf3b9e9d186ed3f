// The time a call spent waiting on its upstreams: what the gateway's own time (the overhead header, the
// usage log's overhead_us) leaves out. Attempts one after another add up; a hedge runs beside the attempt it
// backs up, so the waits are the union of the attempts' intervals, not their sum. Only calls with more than
// one attempt build one of these: a call answered by its first attempt takes its one interval as it is.
export class UpstreamWaits {
  /** Flat [from, to, from, to, …] in performance.now() milliseconds. */
  private readonly spans: number[] = [];

  add(from: number, to: number): void {
    if (to > from) this.spans.push(from, to);
  }

  /** Milliseconds covered by at least one interval. */
  total(): number {
    const pairs: [number, number][] = [];
    for (let i = 0; i < this.spans.length; i += 2) pairs.push([this.spans[i]!, this.spans[i + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    let total = 0;
    let coveredUntil = -Infinity;
    for (const [from, to] of pairs) {
      const start = Math.max(from, coveredUntil);
      if (to > start) total += to - start;
      if (to > coveredUntil) coveredUntil = to;
    }
    return total;
  }
}

/** The gateway's own time in a call that became ready at `readyAt`: all of it but the upstream waits, never below 0. */
export function overheadMs(startedAt: number, readyAt: number, upstreamWaitMs: number): number {
  const own = readyAt - startedAt - upstreamWaitMs;
  return own > 0 ? own : 0;
}

/** The response header that carries a call's own time (LiteLLM's is x-litellm-overhead-duration-ms). */
export const OVERHEAD_HEADER = 'x-gateway-overhead-ms';

/** Milliseconds to the microsecond, as the header writes them: `0.142`. */
export function overheadHeaderValue(ms: number): string {
  return (Math.round(ms * 1000) / 1000).toString();
}
