// Models that say what they support (issue 29 item 3), seen from a Responses client: Codex sends
// reasoning.summary "auto" to every model it has no metadata for, and OpenAI refuses reasoning settings for
// a model without reasoning (the simulator too). Declared `reasoning: false`, the gateway drops them and
// names what it dropped in x-gateway-warnings; a strict model (`unsupported: refuse`) gets a 400 naming the
// parameter before anything is sent; an undeclared model is left alone (the upstream's refusal comes back).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const KEY = testKey('modelcaps');
const PRICES = { input_per_mtok: 1, output_per_mtok: 2 };

let openai: OpenAISimulator;
let anthropic: AnthropicSimulator;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-caps' });
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-caps-a' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-caps', models: ['gpt-4o-mini', 'gpt-4o-strict', 'gpt-4o'], model_mapping: { 'gpt-4o-strict': 'gpt-4o' } },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-caps-a', models: ['claude-haiku-4-5'] },
    ],
    models: [
      { id: 'gpt-4o-mini', ...PRICES, max_output_tokens: 500, capabilities: { reasoning: false } },
      { id: 'gpt-4o-strict', ...PRICES, capabilities: { reasoning: false, unsupported: 'refuse' } },
      { id: 'gpt-4o', ...PRICES },
      { id: 'claude-haiku-4-5', ...PRICES, capabilities: { reasoning_summaries: false, tools: false } },
    ],
    users: [{ name: 'cy', balance: 100 }, { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' }],
    keys: [{ name: 'cy', key: KEY, user: 'cy' }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await anthropic?.close();
});

const CODEX_LIKE = { input: 'hi', reasoning: { summary: 'auto' as const }, include: ['reasoning.encrypted_content' as const], store: false, max_output_tokens: 4000 };

describe('a model entry that says what the model supports', () => {
  it.each([false, true])('drops reasoning for a model without it, lowers max_output_tokens to its limit, and says so (stream: %s)', async (stream) => {
    openai.reset();
    const { response } = stream
      ? await client.responses.create({ model: 'gpt-4o-mini', ...CODEX_LIKE, stream: true }).withResponse()
      : await client.responses.create({ model: 'gpt-4o-mini', ...CODEX_LIKE }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-warnings')).toBe('reasoning dropped: gpt-4o-mini does not reason; max_output_tokens dropped: gpt-4o-mini writes at most 500 tokens; lowered to it');
    const sent = openai.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('reasoning');
    expect(sent.max_output_tokens).toBe(500);
    expect(sent.include).toEqual([]);
  });

  it('refuses for a strict model, naming the parameter, before anything is sent', async () => {
    openai.reset();
    const error = await client.responses.create({ model: 'gpt-4o-strict', ...CODEX_LIKE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('reasoning');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_parameter');
    expect(openai.requests).toEqual([]);
  });

  it('leaves an undeclared model alone: the upstream refuses, as it would', async () => {
    const error = await client.responses.create({ model: 'gpt-4o', ...CODEX_LIKE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("'reasoning.summary' is not supported with this model");
  });

  it('drops summaries and tools on a translated channel too', async () => {
    anthropic.reset();
    const { response } = await client.responses.create({
      model: 'claude-haiku-4-5', input: 'hi', reasoning: { effort: 'low', summary: 'auto' },
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false }],
    }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBe('reasoning.summary dropped: claude-haiku-4-5 gives no reasoning summaries; tools dropped: claude-haiku-4-5 does not call tools');
    const sent = anthropic.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('tools');
  });

  it('are set and shown by the admin model API (the config file\'s shape), and serve the next call', async () => {
    const admin = new ApiClient(gateway.url);
    expect((await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' })).status).toBe(200);
    const bad = await admin.put('/api/admin/models', { id: 'gpt-4o', ...PRICES, capabilities: { reasoning: 'no' } });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'capabilities.reasoning']);
    const put = await admin.put('/api/admin/models', { id: 'gpt-4o', ...PRICES, capabilities: { reasoning: false } });
    expect(put.body).toMatchObject({ id: 'gpt-4o', capabilities: { reasoning: false } });
    const listed = (await admin.get('/api/admin/models')).body as { data: Array<{ id: string; capabilities?: unknown }> };
    expect(listed.data.find((model) => model.id === 'gpt-4o')?.capabilities).toEqual({ reasoning: false });
    const { response } = await client.responses.create({ model: 'gpt-4o', ...CODEX_LIKE }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBe('reasoning dropped: gpt-4o does not reason');
  });
});
