// Gauges read at scrape time, not on the request path: each channel's status (enabled, disabled by an admin,
// disabled automatically) and its circuit breaker's state. One database read per scrape of /metrics; the
// label sets are the configured channels' names, so they stay bounded.
import { Gauge } from './prom-client-parts.ts';
import { listChannelStatuses } from '../db/repositories/channels.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { CircuitBreakers } from '../routing/circuit-breaker.ts';
import type { GatewayMetrics } from './metrics.ts';

const CHANNEL_STATUSES = ['enabled', 'disabled', 'auto_disabled'] as const;
const BREAKER_STATES = ['closed', 'open', 'half-open'] as const;

export function registerStateMetrics(metrics: GatewayMetrics, db: Db, breakers: CircuitBreakers): void {
  let channels: Promise<{ id: number; name: string; status: string }[]> | null = null;
  // Both gauges collect in the same scrape: read the channels once for the two of them.
  const readChannels = () => {
    // A database that cannot answer leaves the gauges empty for this scrape rather than failing /metrics.
    channels ??= listChannelStatuses(db)
      .catch(() => [])
      .finally(() => setTimeout(() => (channels = null), 0));
    return channels;
  };
  new Gauge({
    name: 'gateway_channel_status',
    help: 'Each channel\'s status: 1 for its current one (enabled, disabled, auto_disabled), 0 for the others.',
    labelNames: ['channel', 'status'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const channel of await readChannels()) {
        for (const status of CHANNEL_STATUSES) this.set({ channel: channel.name, status }, channel.status === status ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'gateway_circuit_breaker_state',
    help: 'Each channel\'s circuit breaker: 1 for its current state (closed, open, half-open), 0 for the others.',
    labelNames: ['channel', 'state'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const channel of await readChannels()) {
        const current = breakers.state(channel.id);
        for (const state of BREAKER_STATES) this.set({ channel: channel.name, state }, current === state ? 1 : 0);
      }
    },
  });
}
