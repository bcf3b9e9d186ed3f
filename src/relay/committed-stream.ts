// A stream committed to the client: the segment now answering (its channel, converter and pump), and what
// the client has received through it, which a continuation on another route starts from.
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { StreamConverter } from './relay-hop.ts';
import type { SsePump } from './sse-pump.ts';
import type { ReplayFilter } from './attempts-replay.ts';

export interface CommittedStream {
  channel: RoutedChannel;
  model: string;
  upstreamModel: string;
  converter: StreamConverter;
  pump: SsePump;
  /** The first output, until the client has it (then null: an open stream need not keep its first text). */
  first: { text: string; done: boolean } | null;
  ttftMs: number;
  /** The gateway's own time until the first event reached the client (set at commit, like ttftMs). */
  overheadMs: number;
  /** A restarted answer: the part the client already has is taken out of it (attempts-replay.ts). */
  replay?: { filter: ReplayFilter; prefix: string };
  /** For a continuation: the text the client had before this segment. */
  prefill?: string;
}

/** All the answer text the client has received, through this segment. */
export function deliveredThrough(segment: CommittedStream): { text: string; toolCalls: boolean } {
  const own = segment.converter.delivered();
  if (segment.replay) return segment.replay.filter.caughtUp ? own : { text: segment.replay.prefix, toolCalls: false };
  return segment.prefill ? { text: segment.prefill + own.text, toolCalls: own.toolCalls } : own;
}
