// Prometheus metrics of the metering write path, on the gateway's registry (served at /metrics).
import type { Registry } from 'prom-client';
import { Counter, Gauge, Histogram } from '../http/prom-client-parts.ts';

interface MeteringMetrics {
  deadLetters: Counter;
  writeFailures: Counter;
  dropped: Counter;
  refusedCalls: Counter;
  writeSeconds: Histogram;
}

export function createMeteringMetrics(registry: Registry | undefined, pending: () => number): MeteringMetrics {
  const registers = registry ? [registry] : [];
  new Gauge({
    name: 'gateway_metering_queue_entries',
    help: 'Finished calls whose usage row and charge are not yet written (queued or being written).',
    registers,
    collect() {
      this.set(pending());
    },
  });
  return {
    deadLetters: new Counter({
      name: 'gateway_metering_dead_letters_total',
      help: 'Metering entries the database refused, kept in metering_dead_letters with the error.',
      registers,
    }),
    writeFailures: new Counter({
      name: 'gateway_metering_write_failures_total',
      help: 'Metering writes that failed for want of the database; their entries were kept and retried.',
      registers,
    }),
    dropped: new Counter({
      name: 'gateway_metering_dropped_entries_total',
      help: 'Usage rows of free or failed calls (never a charge) dropped because the queue was at twice its bound.',
      registers,
    }),
    refusedCalls: new Counter({
      name: 'gateway_metering_backpressure_refusals_total',
      help: 'Calls refused with 503 because the unwritten metering backlog was at METERING_QUEUE_LIMIT.',
      registers,
    }),
    writeSeconds: new Histogram({
      name: 'gateway_metering_write_seconds',
      help: 'Time to write one metering batch (one transaction, or more when refused rows are split out).',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2.5, 5],
      registers,
    }),
  };
}
