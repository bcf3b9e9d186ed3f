// The gateway as `npm start` runs it, in its own process: without OTEL_EXPORTER_OTLP_ENDPOINT it resolves
// no OpenTelemetry module at all (a probe loaded with --import reports each one resolved); with it, traces
// go out in OTLP protobuf (the default protocol) under the resource OTEL_RESOURCE_ATTRIBUTES describes, and
// content capture puts the prompt in them only when turned on. ACCESS_LOG=true writes one JSON line per call on standard error, without any secret.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';
import { testKey } from '../helpers/test-gateway.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts';

const KEY = testKey('tracingprocess');
const UPSTREAM_KEY = 'sk-upstream-secret-for-process-test';
const PROBE = join(import.meta.dirname, '../helpers/opentelemetry-load-probe.ts');

let upstream: OpenAISimulator;
let receiver: OtlpReceiver;
const dirs: string[] = [];
const processes: GatewayProcess[] = [];

function config() {
  return {
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'proc', balance: 5 }],
    keys: [{ name: 'proc-key', key: KEY, user: 'proc' }],
  };
}

async function gatewayWith(env: Record<string, string>): Promise<GatewayProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-tracing-'));
  dirs.push(dir);
  // LOG_LEVEL info: the helper waits for the 'listening' line; the access log is written whatever the level.
  const gateway = await startGatewayProcess(dir, config(), { LOG_LEVEL: 'info', ...env }, ['--import', PROBE]);
  processes.push(gateway);
  return gateway;
}

function chat(gateway: GatewayProcess, body: object): Promise<Response> {
  return fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function stderrLine(gateway: GatewayProcess, matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const until = Date.now() + 10_000;
  for (;;) {
    for (const text of gateway.stderr().split('\n')) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      if (matches(line)) return line;
    }
    if (Date.now() > until) throw new Error(`no such line on standard error:\n${gateway.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  for (const gateway of processes) {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  await upstream?.close();
  await receiver?.close();
});

describe('without an OTLP endpoint', () => {
  it('loads no OpenTelemetry module, even after calls; the access log has one line per call and no secret', async () => {
    const gateway = await gatewayWith({ ACCESS_LOG: 'true' });
    const answered = await chat(gateway, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] });
    expect(answered.status).toBe(200);
    const usage = ((await answered.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const refused = await chat(gateway, { model: 'gpt-4o-mini' });
    expect(refused.status).toBe(400);

    const line = await stderrLine(gateway, (entry) => entry.type === 'access' && entry.request_id === answered.headers.get('x-request-id'));
    expect(line).toMatchObject({
      method: 'POST', path: '/v1/chat/completions', status: 200, model: 'gpt-4o-mini', upstream_model: 'gpt-4o-mini', key: 'proc-key', group: 'default',
      input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, cost_micros: Number(answered.headers.get('x-gateway-cost')),
      overhead_ms: Number(answered.headers.get('x-gateway-overhead-ms')), error_code: null,
    });
    expect(typeof line.time).toBe('string');
    expect(line.latency_ms).toBeGreaterThanOrEqual(line.overhead_ms as number);
    const refusal = await stderrLine(gateway, (entry) => entry.type === 'access' && entry.request_id === refused.headers.get('x-request-id'));
    expect(refusal).toMatchObject({ status: 400, key: 'proc-key', cost_micros: 0, error_code: 'GW_ERR_INVALID_REQUEST' });

    const stderr = gateway.stderr();
    expect(stderr).not.toContain(KEY);
    expect(stderr).not.toContain(UPSTREAM_KEY);
    expect(stderr).not.toContain('hello there');
    expect(stderr).not.toContain('OPENTELEMETRY-MODULE');
    expect(stderr.split('\n').filter((text) => text.includes('"type":"access"'))).toHaveLength(2);
  }, 60_000);
});

describe('with an OTLP endpoint', () => {
  it('loads the SDK and exports protobuf spans; with content capture on, the prompt is in the call span', async () => {
    const gateway = await gatewayWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=production',
    });
    expect(gateway.stderr()).toContain('OPENTELEMETRY-MODULE');
    const answered = await chat(gateway, { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'capture this prompt' }] });
    expect(answered.status).toBe(200);
    const requestId = answered.headers.get('x-request-id');
    const spans = await receiver.waitFor((all) => all.some((span) => span.attributes['gateway.request_id'] === requestId));
    expect(receiver.contentTypes).toContain('application/x-protobuf');
    const call = spans.find((span) => span.attributes['gateway.request_id'] === requestId)!;
    expect(call.name).toBe('chat gpt-4o-mini');
    // The process's OTEL_RESOURCE_ATTRIBUTES, beside the gateway's service name.
    expect(call.resource).toMatchObject({ 'service.name': 'model-gateway', 'deployment.environment.name': 'production' });
    expect(JSON.parse(call.attributes['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'capture this prompt' }] }]);
    expect(JSON.parse(call.attributes['gen_ai.system_instructions'] as string)).toEqual([{ type: 'text', content: 'Be brief.' }]);
  }, 60_000);
});
