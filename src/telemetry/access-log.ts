// The access log (ACCESS_LOG=true): one JSON line per relayed call on standard error, whatever LOG_LEVEL
// says, written when the call is recorded (relay/record-call.ts, relay/record-refusal.ts). It names the key
// by its name, never its secret, and holds no request or answer content: only what the usage row holds.
import { pino, type Logger } from 'pino';

export interface AccessLogEntry {
  requestId: string;
  method: string;
  /** The route (`/v1/chat/completions`, `/v1beta/models/{model}:generateContent`). */
  path: string;
  status: number;
  model: string;
  upstreamModel: string | null;
  keyName: string;
  group: string;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  latencyMs: number;
  ttftMs: number | null;
  overheadMs: number | null;
  errorCode: string | null;
}

export interface AccessLog {
  write(entry: AccessLogEntry): void;
  /** Writes out what is buffered (shutdown). */
  flush(): void;
}

/** Buffered (not a synchronous write per call) to standard error, or to the destination given (tests). */
export function createAccessLog(destination = pino.destination({ dest: 2, sync: false })): AccessLog {
  const logger: Logger = pino({ level: 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
  return {
    write(entry) {
      logger.info({
        type: 'access',
        request_id: entry.requestId,
        method: entry.method,
        path: entry.path,
        status: entry.status,
        model: entry.model,
        upstream_model: entry.upstreamModel,
        key: entry.keyName,
        group: entry.group,
        input_tokens: entry.inputTokens,
        output_tokens: entry.outputTokens,
        cost_micros: entry.costMicros,
        latency_ms: round(entry.latencyMs),
        ttft_ms: entry.ttftMs === null ? null : round(entry.ttftMs),
        overhead_ms: entry.overheadMs === null ? null : round(entry.overheadMs),
        error_code: entry.errorCode,
      });
    },
    flush() {
      destination.flushSync();
    },
  };
}

/** Milliseconds to the microsecond. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
