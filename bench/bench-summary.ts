// The closing line of `npm run bench`: every headline figure on one line, with the issue-16 targets, so
// one run can be set beside the last at a glance (and grepped: it starts with "BENCH").
import type { StreamsScaleResult } from './load-tools.ts';

export interface TargetSummary {
  rps: number;
  /** CPU time of the serving process (every thread) per request during the throughput run. */
  cpuUs: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
}

export const median = (values: number[]): number => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface ClosingFigures {
  summaries: Record<string, TargetSummary> | null;
  memory: { idleMb: number; peakMb: number } | null;
  streamCpu: { sameUs: number; translatedUs: number } | null;
  scale: StreamsScaleResult | null;
  wantedStreams: number;
}

const ms = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
const pct = (value: number) => `${(100 * value).toFixed(1)}%`;

export function closingLine({ summaries, memory, streamCpu, scale, wantedStreams }: ClosingFigures): string {
  const parts: string[] = [];
  const direct = summaries?.direct;
  const bare = summaries?.bare;
  const gateway = summaries?.gateway;
  if (direct && bare && gateway) {
    parts.push(`req/s gw ${gateway.rps.toFixed(0)} bare ${bare.rps.toFixed(0)} direct ${direct.rps.toFixed(0)}`);
    parts.push(`gw/bare ${pct(gateway.rps / bare.rps)} (≥85%) gw/direct ${pct(gateway.rps / direct.rps)}`);
    parts.push(`CPU/req gw ${gateway.cpuUs.toFixed(1)} bare ${bare.cpuUs.toFixed(1)} µs = ${(gateway.cpuUs / bare.cpuUs).toFixed(2)}× (≤1.15×)`);
    parts.push(`added p50 ${ms(gateway.p50 - direct.p50)} p99 ${ms(gateway.p99 - direct.p99)} ms`);
    parts.push(`added stream TTFB p50 ${ms(gateway.ttfb50 - direct.ttfb50)} ms (≤0.4)`);
  }
  if (streamCpu) parts.push(`translated/same CPU per event ${(streamCpu.translatedUs / streamCpu.sameUs).toFixed(2)}× (${streamCpu.translatedUs.toFixed(1)}/${streamCpu.sameUs.toFixed(1)} µs, ≤1.3×)`);
  if (memory) parts.push(`RSS idle ${memory.idleMb.toFixed(0)} MB (<100) peak ${memory.peakMb.toFixed(0)} MB (<150)`);
  if (scale) {
    const limited = scale.streams < wantedStreams ? ` (file limit: ${wantedStreams} wanted)` : '';
    parts.push(`streams ${scale.complete}/${scale.streams} in order${limited}, ${scale.kbPerStream.toFixed(1)} KB each (<20)`);
  }
  return `BENCH ${parts.join(' | ')}`;
}
