// Back-pressure from the metering write path to admission. When the usage rows and charges not yet written
// reach METERING_QUEUE_LIMIT (the database is slow or away), new calls are refused with 503 and Retry-After
// instead of growing memory without bound or serving calls that could not be billed. Calls already admitted
// still finish and are queued (their charges are never dropped); the refusals stop once the backlog drains.
//
// Attached to the rate limiter's admit(), the first step of admission (src/metering/admission.ts) that
// every relayed call passes (chat, the other endpoints, realtime) before anything is reserved or sent
// upstream, so the gate needs no wiring in the relay. A GatewayError passes admission unchanged.
import { meteringBacklogFull } from '../gateway-errors.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { UsageRecorder } from './usage-recorder.ts';

const RETRY_AFTER_SECONDS = 1;

export function gateAdmissionOnMeteringBacklog(rateLimiter: RateLimiter, recorder: Pick<UsageRecorder, 'backlogFull' | 'noteRefusal'>): RateLimiter {
  return {
    admit(subjects, now) {
      if (recorder.backlogFull) {
        recorder.noteRefusal();
        return Promise.reject(meteringBacklogFull(RETRY_AFTER_SECONDS));
      }
      return rateLimiter.admit(subjects, now);
    },
    addTokens: (subjects, tokens, now) => rateLimiter.addTokens(subjects, tokens, now),
    close: () => rateLimiter.close(),
  };
}
