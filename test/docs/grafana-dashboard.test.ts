// docs/grafana/model-gateway.json is a dashboard Grafana can import, and every metric its queries name is
// one a live gateway exports on /metrics (read from a running gateway here, not from a list in the test).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('dashboards');
const DASHBOARD = join(import.meta.dirname, '../../docs/grafana/model-gateway.json');

interface Target { refId: string; expr: string; datasource: { uid: string } }
interface Panel { id: number; type: string; title: string; gridPos: { h: number; w: number; x: number; y: number }; targets?: Target[]; datasource?: { uid: string } }

let upstream: OpenAISimulator;
let gateway: TestGateway;
let exported: Set<string>;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'dash', balance: 5 }],
    keys: [{ name: 'dash', key: KEY, user: 'dash' }],
  });
  const call = (body: object) => fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await call({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true })).status).toBe(200);
  expect((await call({ model: 'gpt-4o-mini' })).status).toBe(400);
  // Every series the dashboard reads, declared by the live exposition's TYPE lines (histograms as their series).
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  exported = new Set();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exported.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(name! + suffix);
  }
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function dashboard(): Promise<{ panels: Panel[]; uid: string; title: string; templating: { list: { name: string; query?: unknown; definition?: string }[] }; __inputs: { name: string }[] }> {
  return JSON.parse(await readFile(DASHBOARD, 'utf8'));
}

/** The metric names a PromQL expression reads (the gateway's, the process's and Node's). */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/\b((?:gateway|process|nodejs)_[a-z0-9_]+)\b/g)].map((match) => match[1]!);
}

describe('the Grafana dashboard', () => {
  it('is an importable dashboard: a title and uid, its data source as an input, unique panel ids, every panel placed', async () => {
    const board = await dashboard();
    expect(board.title).toBe('Model gateway');
    expect(board.uid).toMatch(/^[\w-]{1,40}$/);
    expect(board.__inputs.map((input) => input.name)).toEqual(['DS_PROMETHEUS']);
    const ids = board.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of board.panels) {
      expect(panel.gridPos.w).toBeGreaterThan(0);
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) expect(target.datasource.uid, panel.title).toBe('${DS_PROMETHEUS}');
    }
  });

  it('names only metrics the gateway exports, and every query names one', async () => {
    const board = await dashboard();
    const named = new Set<string>();
    for (const panel of board.panels) {
      for (const target of panel.targets ?? []) {
        const metrics = metricsIn(target.expr);
        expect(metrics.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        for (const metric of metrics) {
          expect(exported.has(metric), `${panel.title} reads ${metric}, which /metrics does not export`).toBe(true);
          named.add(metric);
        }
      }
    }
    for (const variable of board.templating.list) for (const metric of metricsIn(variable.definition ?? '')) expect(exported.has(metric), variable.name).toBe(true);
    // What the issue asks the dashboard to show: traffic, errors by code, latency and first token, the
    // gateway's overhead, cost by model and group, channel state and breakers, the metering backlog.
    for (const metric of ['gateway_requests_total', 'gateway_errors_total', 'gateway_upstream_response_seconds_bucket', 'gateway_time_to_first_token_seconds_bucket', 'gateway_overhead_seconds_bucket', 'gateway_cost_micro_usd_total', 'gateway_channel_status', 'gateway_circuit_breaker_state', 'gateway_metering_queue_entries']) {
      expect(named.has(metric), metric).toBe(true);
    }
  });

  it('the live /metrics counts the refused call under its error code', async () => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).toMatch(/^gateway_errors_total\{endpoint="\/v1\/chat\/completions",code="GW_ERR_[A-Z_]+"\} 1$/m);
  });
});
