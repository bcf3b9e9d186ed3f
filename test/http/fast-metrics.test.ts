// The request-path metrics count in our own objects and hand prom-client the totals at scrape time. This
// checks that /metrics text stays byte for byte what prom-client's own Counter and Histogram print for the
// same calls (names, HELP/TYPE, label order and escaping, cumulative buckets, +Inf, _sum, _count).
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from '../../src/http/fast-metrics.ts';

type Calls = (metrics: {
  counter: { inc(labels: Record<string, string>, value?: number): void };
  histogram: { observe(labels: Record<string, string>, value: number): void };
}) => void;

async function bothTexts(calls: Calls): Promise<{ prom: string; fast: string }> {
  const promRegistry = new Registry();
  const fastRegistry = new Registry();
  const counterOptions = { name: 'x_requests_total', help: 'Requests, by "route" and status\\n.', labelNames: ['route', 'model', 'status'] as const };
  const histogramOptions = { name: 'x_latency_seconds', help: 'Latency.', labelNames: ['channel'] as const, buckets: [0.5, 0.005, 1, 0.1, 30] };
  calls({
    counter: new Counter({ ...counterOptions, labelNames: [...counterOptions.labelNames], registers: [promRegistry] }),
    histogram: new Histogram({ ...histogramOptions, labelNames: [...histogramOptions.labelNames], registers: [promRegistry] }),
  });
  calls({
    counter: new FastCounter({ ...counterOptions, registers: [fastRegistry] }),
    histogram: new FastHistogram({ ...histogramOptions, registers: [fastRegistry] }),
  });
  return { prom: await promRegistry.metrics(), fast: await fastRegistry.metrics() };
}

describe('request-path metrics counted outside prom-client', () => {
  it('print the same exposition text as prom-client for the same calls', async () => {
    const { prom, fast } = await bothTexts(({ counter, histogram }) => {
      counter.inc({ route: '/v1/chat/completions', model: 'gpt-4o', status: '200' });
      counter.inc({ status: '429', model: 'other', route: '/v1/messages' }, 3);
      counter.inc({ route: '/v1/chat/completions', model: 'gpt-4o', status: '200' }, 2.5);
      counter.inc({ status: '200', model: 'gpt-4o', route: '/v1/chat/completions' });
      counter.inc({ route: 'unmatched', model: 'a "quoted"\\ back\nslash', status: '404' });
      counter.inc({ route: 'unmatched', model: '', status: '404' }, 0);
      for (const seconds of [0.001, 0.005, 0.0051, 0.2, 0.5, 0.7, 1, 29, 31, 1000]) histogram.observe({ channel: 'main' }, seconds);
      histogram.observe({ channel: 'backup' }, 0.05);
    });
    expect(fast).toContain('x_requests_total{route="/v1/chat/completions",model="gpt-4o",status="200"} 4.5');
    expect(fast).toContain('x_latency_seconds_bucket{le="0.5",channel="main"} 5');
    expect(fast).toBe(prom);
  });

  it('print the same text for metrics never updated', async () => {
    const { prom, fast } = await bothTexts(() => {});
    expect(fast).toContain('# TYPE x_latency_seconds histogram');
    expect(fast).toBe(prom);
  });

  it('refuse what prom-client refuses: a negative or non-finite count, an undeclared label', async () => {
    const registry = new Registry();
    const counter = new FastCounter({ name: 'y_total', help: 'y', labelNames: ['model'], registers: [registry] });
    const histogram = new FastHistogram({ name: 'y_seconds', help: 'y', labelNames: ['model'], buckets: [1], registers: [registry] });
    expect(() => counter.inc({ model: 'a' }, -1)).toThrow('decrease');
    expect(() => counter.inc({ model: 'a' }, Number.NaN)).toThrow('not a valid number');
    expect(() => histogram.observe({ model: 'a' }, Number.POSITIVE_INFINITY)).toThrow('not a valid number');
    expect(() => counter.inc({ model: 'a', route: 'x' } as never)).toThrow('not included');
    expect(await registry.metrics()).not.toContain('y_total{');
  });
});
