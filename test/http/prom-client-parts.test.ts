// /metrics keeps prom-client's default metrics while the gateway loads prom-client without its index (and so
// without @opentelemetry/api): src/http/prom-client-parts.ts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { collectDefaultMetrics as promClientDefaults, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectDefaultMetrics } from '../../src/http/prom-client-parts.ts';

const headerLines = async (registry: Registry) => (await registry.metrics()).split('\n').filter((line) => line.startsWith('# '));

describe('prom-client without its index', () => {
  it('registers the default metrics prom-client does, in its order, with its HELP and TYPE', async () => {
    const ours = new Registry();
    collectDefaultMetrics(ours);
    const theirs = new Registry();
    promClientDefaults({ register: theirs });
    const expected = await headerLines(theirs);
    expect(expected.length).toBeGreaterThan(40);
    expect(await headerLines(ours)).toEqual(expected);
    expect((await ours.metrics())).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('builds and scrapes the gateway metrics without loading @opentelemetry/api', () => {
    const root = join(import.meta.dirname, '../..');
    const script = `
      import { createRequire } from 'node:module';
      const { createMetrics } = await import(${JSON.stringify(join(root, 'src/http/metrics.ts'))});
      const { createMeteringMetrics } = await import(${JSON.stringify(join(root, 'src/metering/metering-metrics.ts'))});
      await import(${JSON.stringify(join(root, 'src/http/state-metrics.ts'))});
      const metrics = createMetrics();
      createMeteringMetrics(metrics.registry, () => 0);
      const text = await metrics.registry.metrics();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stdout.write(JSON.stringify({ cpu: /process_cpu_seconds_total/.test(text), otel: loaded.some((file) => file.includes('@opentelemetry')), promClient: loaded.some((file) => file.includes('prom-client')) }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ cpu: true, otel: false, promClient: true });
  });
});
