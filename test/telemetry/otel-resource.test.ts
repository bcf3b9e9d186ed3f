// The resource of the gateway's spans honours the standard variables (issue 33), read by the SDK's own
// detectors: OTEL_RESOURCE_ATTRIBUTES (percent-decoded; a malformed value ignored whole, as the
// specification says), and OTEL_SERVICE_NAME over a service.name in those attributes; without either the
// service is `model-gateway`, and the SDK's telemetry.sdk.* attributes are kept. Three gateways exporting
// to the in-process OTLP receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOtlpReceiver, type AttributeValue, type OtlpReceiver } from '../helpers/otlp-receiver.ts';

const KEY = testKey('otelresource');
const ATTRIBUTES = 'service.name=from-attributes, deployment.environment.name=staging,team=search%2Cads';

let upstream: OpenAISimulator;
let receiver: OtlpReceiver;
const gateways: TestGateway[] = [];

/**
 * A gateway started with OTEL_RESOURCE_ATTRIBUTES in the process's environment (where the SDK's detector
 * reads it, as it does for `npm start`) while it starts, and `env` in its own.
 */
async function gatewayWith(resourceAttributes: string | undefined, env: Record<string, string> = {}): Promise<TestGateway> {
  const before = process.env.OTEL_RESOURCE_ATTRIBUTES;
  if (resourceAttributes === undefined) delete process.env.OTEL_RESOURCE_ATTRIBUTES;
  else process.env.OTEL_RESOURCE_ATTRIBUTES = resourceAttributes;
  try {
    const gateway = await startTestGateway({
      channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up-resource', models: ['gpt-4o-mini'] }],
      models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
      users: [{ name: 'res', balance: 5 }],
      keys: [{ name: 'res-key', key: KEY, user: 'res' }],
    }, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', ...env } });
    gateways.push(gateway);
    return gateway;
  } finally {
    if (before === undefined) delete process.env.OTEL_RESOURCE_ATTRIBUTES;
    else process.env.OTEL_RESOURCE_ATTRIBUTES = before;
  }
}

/** The resource attributes of a call's span, after one call through the gateway. */
async function resourceOfACall(gateway: TestGateway): Promise<Record<string, AttributeValue>> {
  const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(answer.status).toBe(200);
  const requestId = answer.headers.get('x-request-id');
  const spans = await receiver.waitFor((all) => all.some((span) => span.attributes['gateway.request_id'] === requestId));
  return spans.find((span) => span.attributes['gateway.request_id'] === requestId)!.resource;
}

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up-resource' });
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  for (const gateway of gateways) await gateway.dispose();
  await upstream?.close();
  await receiver?.close();
});

describe('the resource of the spans', () => {
  it('is the service model-gateway with the SDK attributes, without the variables (a malformed OTEL_RESOURCE_ATTRIBUTES is ignored whole)', async () => {
    const resource = await resourceOfACall(await gatewayWith('deployment.environment.name=ignored,no-value-here'));
    expect(resource['service.name']).toBe('model-gateway');
    expect(resource).toMatchObject({ 'telemetry.sdk.language': 'nodejs', 'telemetry.sdk.name': 'opentelemetry' });
    expect(resource['deployment.environment.name']).toBeUndefined();
  });

  it('carries OTEL_RESOURCE_ATTRIBUTES, percent-decoded, service.name included', async () => {
    const resource = await resourceOfACall(await gatewayWith(ATTRIBUTES));
    expect(resource).toMatchObject({ 'service.name': 'from-attributes', 'deployment.environment.name': 'staging', team: 'search,ads', 'telemetry.sdk.language': 'nodejs' });
  });

  it('takes OTEL_SERVICE_NAME over a service.name in OTEL_RESOURCE_ATTRIBUTES, keeping the other attributes', async () => {
    const resource = await resourceOfACall(await gatewayWith(ATTRIBUTES, { OTEL_SERVICE_NAME: 'from-service-name' }));
    expect(resource).toMatchObject({ 'service.name': 'from-service-name', 'deployment.environment.name': 'staging', team: 'search,ads' });
  });
});
