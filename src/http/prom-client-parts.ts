// prom-client's registry and metric classes, and its default metrics, without its index: the index requires
// lib/defaultMetrics, whose process CPU metric requires @opentelemetry/api (51 modules, ~1.6 MB of heap) for
// exemplars the gateway never turns on. prom-client has no `exports` map, so its lib files are its API too.
// Everything else in the gateway imports prom-client's runtime values from here (types from 'prom-client').
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry') as typeof PromClient.Registry;
export const Counter = require('prom-client/lib/counter') as typeof PromClient.Counter;
export const Gauge = require('prom-client/lib/gauge') as typeof PromClient.Gauge;
export const Histogram = require('prom-client/lib/histogram') as typeof PromClient.Histogram;

// The same names as types, so `import { Counter } from './prom-client-parts.ts'` serves both.
export type Registry = PromClient.Registry;
export type Counter<T extends string = string> = PromClient.Counter<T>;
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
export type Histogram<T extends string = string> = PromClient.Histogram<T>;

type DefaultMetric = (registry: PromClient.Registry, config: { eventLoopMonitoringPrecision: number }) => void;

// prom-client's collectDefaultMetrics (lib/defaultMetrics.js), in its order, with its config; only the
// first, process CPU time, is ours (registerProcessCpu), the same three counters without exemplars.
const PROM_CLIENT_DEFAULT_METRICS = [
  'processStartTime', 'osMemoryHeap', 'processOpenFileDescriptors', 'processMaxFileDescriptors', 'eventLoopLag',
  'processResources', 'processHandles', 'processRequests', 'heapSizeAndUsed', 'heapSpacesSizeAndUsed', 'version', 'gc',
] as const;

/** What `collectDefaultMetrics({ register: registry })` registers, series for series. */
export function collectDefaultMetrics(registry: PromClient.Registry): void {
  const config = { eventLoopMonitoringPrecision: 10 };
  registerProcessCpu(registry);
  for (const name of PROM_CLIENT_DEFAULT_METRICS) (require(`prom-client/lib/metrics/${name}`) as DefaultMetric)(registry, config);
}

/** prom-client's lib/metrics/processCpuTotal.js without the exemplar branch (and so without OpenTelemetry). */
function registerProcessCpu(registry: PromClient.Registry): void {
  let last = process.cpuUsage();
  const user = new Counter({
    name: 'process_cpu_user_seconds_total',
    help: 'Total user CPU time spent in seconds.',
    registers: [registry],
    // This one metric's collect sets all three, as prom-client's does.
    collect() {
      const now = process.cpuUsage();
      const userMicros = now.user - last.user;
      const systemMicros = now.system - last.system;
      last = now;
      user.inc(userMicros / 1e6);
      system.inc(systemMicros / 1e6);
      total.inc((userMicros + systemMicros) / 1e6);
    },
  });
  const system = new Counter({ name: 'process_cpu_system_seconds_total', help: 'Total system CPU time spent in seconds.', registers: [registry] });
  const total = new Counter({ name: 'process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.', registers: [registry] });
}
