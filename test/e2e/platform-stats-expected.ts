// What the statistics roll-ups must hold, computed from usage-log rows in plain code (a GROUP BY by hand):
// each call counted once in its minute, hour and day bucket (and six hours and week, per key); an error is a status of 400 or more.
import { STAT_BUCKETS } from '../../src/metering/metering-writer.ts';

export interface LoggedCall {
  created_at: number;
  user_id: number | null;
  key_id: number | null;
  model: string;
  status: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
}

interface Counters { requests: number; errors: number; input_tokens: number; output_tokens: number; cost_micros: number }

export function expectedRollups(calls: readonly LoggedCall[], keep: (bucket: string, start: number) => boolean) {
  const platform = new Map<string, { bucket: string; bucket_start: number; model: string } & Counters>();
  const keys = new Map<string, { bucket: string; bucket_start: number; user_id: number; key_id: number } & Counters>();
  const add = (row: Counters, call: LoggedCall) => {
    row.requests++;
    row.errors += call.status >= 400 ? 1 : 0;
    row.input_tokens += call.input_tokens;
    row.output_tokens += call.output_tokens;
    row.cost_micros += call.cost_micros;
  };
  const zero = (): Counters => ({ requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 });
  for (const call of calls) {
    for (const [bucket, size] of Object.entries(STAT_BUCKETS)) {
      const start = call.created_at - (call.created_at % size);
      if (!keep(bucket, start)) continue;
      const p = `${bucket}|${start}|${call.model}`;
      if (!platform.has(p)) platform.set(p, { bucket, bucket_start: start, model: call.model, ...zero() });
      add(platform.get(p)!, call);
    }
    // The per-key roll-up alone also has six-hour and week buckets (aligned to the epoch).
    for (const [bucket, size] of [...Object.entries(STAT_BUCKETS), ['six_hours', 6 * 3_600_000] as const, ['week', 7 * 86_400_000] as const]) {
      const start = call.created_at - (call.created_at % size);
      if (!keep(bucket, start)) continue;
      const user = call.user_id ?? 0;
      const key = call.key_id ?? 0;
      const k = `${bucket}|${start}|${user}|${key}`;
      if (!keys.has(k)) keys.set(k, { bucket, bucket_start: start, user_id: user, key_id: key, ...zero() });
      add(keys.get(k)!, call);
    }
  }
  return { platform: [...platform.values()], keys: [...keys.values()] };
}
