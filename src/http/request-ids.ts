// Request ids (`req_` + 32 hex digits, the shape they always had): a random 64-bit prefix drawn once per
// process, then a counter. randomUUID plus stripping its dashes cost ~1.5 µs per request under load (1 % of
// the gateway's CPU per call); a counter costs next to nothing. The ids only name a call in answers, logs
// and the usage log: they must be unique, not secret (nothing is looked up or authorised by request id).
import { randomBytes } from 'node:crypto';

export function createRequestIdGenerator(): () => string {
  const prefix = `req_${randomBytes(8).toString('hex')}`;
  // A safe integer counts 2^53 calls, far beyond a process's life; 16 hex digits keep the length fixed.
  let sequence = 0;
  return () => prefix + (++sequence).toString(16).padStart(16, '0');
}
