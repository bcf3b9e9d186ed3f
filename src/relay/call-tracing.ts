// Where the relay meets tracing (src/telemetry/call-trace.ts): starting a call's trace, ending it with the
// call's record, and ending it for a call admission refused. Only ever called when the relay has a tracer.
import { GatewayError } from '../gateway-errors.ts';
import { emptyUsage } from '../metering/usage.ts';
import type { CallTrace, CallTracer } from '../telemetry/call-trace.ts';
import type { RelayCall } from './relay-types.ts';
import type { Usage } from '../metering/usage.ts';
import type { AnswerReading } from '../hub/hub-format.ts';

export function startCallTrace(tracer: CallTracer, call: RelayCall): CallTrace {
  const trace = tracer.startCall({
    requestId: call.requestId,
    endpoint: call.endpoint,
    inboundFormat: call.inboundFormat,
    model: call.model,
    stream: call.stream,
    keyName: call.key.name,
    groupName: call.key.groupName,
    headers: call.traceHeaders,
    body: call.body,
    startedAt: call.startedAt,
  });
  call.trace = trace;
  return trace;
}

/** Admission refused the call: its span ends with the refusal (the route records the call). */
export function endRefusedTrace(trace: CallTrace, call: RelayCall, admittedFrom: number, error: unknown): void {
  trace.admission(admittedFrom, error);
  const overheadMs = performance.now() - call.startedAt;
  trace.end({
    status: error instanceof GatewayError ? error.status : 500,
    model: call.model,
    upstreamModel: null,
    usage: emptyUsage(),
    costMicros: 0,
    error: error instanceof Error ? error.message : String(error),
    errorCode: error instanceof GatewayError ? error.gatewayCode : null,
    ttftMs: null,
    overheadMs,
  });
}

/** What record-call.ts's CallOutcome holds that a trace reads (named here: that file imports this one). */
interface RecordedOutcome {
  status: number;
  model?: string;
  upstreamModel: string | null;
  usage: Usage;
  error: string | null;
  errorCode?: string | null;
  ttftMs: number | null;
}

/** The answer the client got, read for the trace (finish reasons, text); a reading that fails leaves the span without it. */
export function traceAnswer(trace: CallTrace, read: () => AnswerReading): void {
  try {
    trace.answered(read());
  } catch {
    // an answer the watcher cannot read again: the span goes without its finish reasons
  }
}

/** The call is recorded: its trace ends with what the record says. */
export function endCallTrace(trace: CallTrace, call: RelayCall, outcome: RecordedOutcome, costMicros: number, overheadMs: number): void {
  trace.end({
    status: outcome.status,
    model: outcome.model ?? call.model,
    upstreamModel: outcome.upstreamModel,
    usage: outcome.usage,
    costMicros,
    error: outcome.error,
    errorCode: outcome.errorCode ?? null,
    ttftMs: outcome.ttftMs,
    overheadMs,
  });
}
