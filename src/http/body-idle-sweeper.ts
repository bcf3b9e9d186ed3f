// Closes connections whose request body stops arriving for longer than the body-idle limit. One coarse
// timer per server checks the bodies still arriving, by the socket's byte count, instead of arming
// `socket.setTimeout` per request: that cost ~1.2 µs per request with a body (a timer armed and cleared, a
// closure and an 'end' listener, and Node refreshing the timer on every read and write; issue 16).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

interface ArrivingBody {
  request: IncomingMessage;
  socket: Socket;
  /** The socket's `bytesRead` when last seen to change; -1 before the first check. */
  bytesRead: number;
  /** When `bytesRead` last changed (the sweeper's clock). */
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
  let arriving: ArrivingBody[] = [];
  let timer: NodeJS.Timeout | null = null;
  // Bodies that finished are also dropped between checks, once the list has doubled since the last
  // compaction (amortised constant per request): otherwise a second's worth of requests (thousands under
  // load) would stay referenced until the next check and be promoted to the old generation.
  let compactAt = 64;

  const sweep = () => {
    const now = performance.now();
    const still: ArrivingBody[] = [];
    for (const body of arriving) {
      // Done: the body is in (the answer may then take minutes; that silence is allowed), or the socket is gone.
      if (body.request.complete || body.socket.destroyed) continue;
      const bytesRead = body.socket.bytesRead;
      if (bytesRead !== body.bytesRead) {
        body.bytesRead = bytesRead;
        body.since = now;
      } else if (now - body.since >= idleMs) {
        body.socket.destroy();
        continue;
      }
      still.push(body);
    }
    arriving = still;
    if (arriving.length === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };

  return {
    watch(request) {
      if (arriving.length >= compactAt) {
        arriving = arriving.filter((body) => !body.request.complete && !body.socket.destroyed);
        compactAt = Math.max(64, arriving.length * 2);
      }
      arriving.push({ request, socket: request.socket, bytesRead: -1, since: 0 });
      if (timer === null) {
        timer = setInterval(sweep, intervalMs);
        timer.unref();
      }
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      arriving = [];
    },
  };
}
