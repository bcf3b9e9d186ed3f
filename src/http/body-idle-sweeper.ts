// Closes connections whose request body stops arriving for longer than the body-idle limit. One coarse
// timer per server checks the bodies still arriving, by the socket's byte count, instead of arming
// `socket.setTimeout` per request: that cost a timer armed and cleared, a closure and an 'end' listener per
// request with a body, and Node refreshing the timer on every read and write (issue 16). Watching a request
// is one array push: the progress of a body is only recorded for the few still arriving at a check.
import type { IncomingMessage } from 'node:http';

interface Progress {
  /** The socket's `bytesRead` when last seen to change. */
  bytesRead: number;
  /** When it last changed (the sweeper's clock). */
  since: number;
}

export interface BodyIdleSweeper {
  /** Watches a request whose body has not fully arrived yet. */
  watch(request: IncomingMessage): void;
  /** Stops the timer (server closing). */
  stop(): void;
}

/**
 * A body silent for `idleMs` gets its connection destroyed, between `idleMs` and `idleMs` plus one check
 * interval (a quarter of the limit, 50 ms to 1 s) after its last byte. The timer runs only while some body is
 * arriving, and never keeps the process alive.
 */
export function createBodyIdleSweeper(idleMs: number): BodyIdleSweeper {
  const intervalMs = Math.max(50, Math.min(1_000, Math.floor(idleMs / 4)));
  let arriving: IncomingMessage[] = [];
  let progress = new Map<IncomingMessage, Progress>();
  let timer: NodeJS.Timeout | null = null;
  // Bodies that finished are also dropped between checks, once the list has doubled since the last
  // compaction (amortised constant per request): otherwise a second's worth of requests (thousands under
  // load) would stay referenced until the next check and be promoted to the old generation.
  let compactAt = 256;

  const sweep = () => {
    const now = performance.now();
    const still: IncomingMessage[] = [];
    const stillProgress = new Map<IncomingMessage, Progress>();
    for (const request of arriving) {
      // Done: the body is in (the answer may then take minutes; that silence is allowed), or the socket is gone.
      const socket = request.socket;
      if (request.complete || socket.destroyed) continue;
      const bytesRead = socket.bytesRead;
      const seen = progress.get(request);
      if (seen === undefined || bytesRead !== seen.bytesRead) {
        stillProgress.set(request, { bytesRead, since: now });
      } else if (now - seen.since >= idleMs) {
        socket.destroy();
        continue;
      } else {
        stillProgress.set(request, seen);
      }
      still.push(request);
    }
    arriving = still;
    progress = stillProgress;
    compactAt = Math.max(256, still.length * 2);
    if (arriving.length === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };

  return {
    watch(request) {
      if (arriving.length >= compactAt) {
        // In place and reading only `complete` (a destroyed socket's entry goes at the next check).
        let kept = 0;
        for (const waiting of arriving) if (!waiting.complete) arriving[kept++] = waiting;
        arriving.length = kept;
        compactAt = Math.max(256, kept * 2);
      }
      arriving.push(request);
      if (timer === null) {
        timer = setInterval(sweep, intervalMs);
        timer.unref();
      }
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      arriving = [];
      progress = new Map();
    },
  };
}
