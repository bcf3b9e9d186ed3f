// A restarted answer, with the part the client already has taken out. When a stream broke and no route
// would continue it from an assistant prefill, the call is sent again from the start; this filter reads
// the client-format events of that new answer and drops its text until it has repeated, character for
// character, what was delivered, then passes the rest on. If the new answer says something else first
// (different text, a tool call, or an end before catching up) it has diverged: nothing of it is sent.
// Works on the client's wire format through the format's own `replayEvent` reader, so every hop can use it.
import type { FormatConverters } from '../hub/hub-format.ts';
import { formatSseEvent } from './sse-pump.ts';

export interface ReplayFilter {
  /** The client text of the restarted stream, minus what was already delivered. */
  pass(text: string): string;
  /** The new answer repeated all of the delivered text: everything from here on goes to the client. */
  readonly caughtUp: boolean;
  /** The new answer does not repeat the delivered text: none of it may reach the client. */
  readonly diverged: boolean;
}

/** Null for a client format this filter cannot read (the stream then ends with its error event). */
export function createReplayFilter(format: FormatConverters, delivered: string): ReplayFilter | null {
  const readEvent = format.replayEvent;
  if (!readEvent) return null;
  let offset = 0;
  let diverged = false;
  let caughtUp = delivered.length === 0;
  /** Takes the already-delivered part out of one piece of new text: what is left, or null on a mismatch. */
  const skip = (piece: string): string | null => {
    if (caughtUp || piece.length === 0) return piece;
    const wanted = delivered.length - offset;
    const head = piece.slice(0, wanted);
    if (head !== delivered.slice(offset, offset + head.length)) return null;
    offset += head.length;
    if (offset === delivered.length) caughtUp = true;
    return piece.slice(head.length);
  };
  return {
    get caughtUp() {
      return caughtUp;
    },
    get diverged() {
      return diverged;
    },
    pass(text) {
      if (caughtUp || diverged) return diverged ? '' : text;
      let out = '';
      for (const raw of text.split('\n\n')) {
        if (raw.length === 0) continue;
        if (caughtUp) {
          out += raw + '\n\n';
          continue;
        }
        const { event, data } = parseEvent(raw);
        const step = readEvent(event, data, skip, () => caughtUp);
        if (step === 'diverged') {
          diverged = true;
          return '';
        }
        if (step.keep !== null) out += formatSseEvent(step.keep, event);
      }
      return out;
    },
  };
}

function parseEvent(raw: string): { event: string | undefined; data: string } {
  let event: string | undefined;
  let data = '';
  for (const line of raw.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
  }
  return { event, data };
}
