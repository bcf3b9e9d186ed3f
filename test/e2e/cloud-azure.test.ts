// End to end on Azure OpenAI channels: the official SDKs → the gateway → the Azure simulator, in both path
// styles (deployments with api-version and the api-key header; v1 with an Entra ID token the gateway gets
// by the client-credentials grant), every OpenAI endpoint Azure serves, and refused credentials.
import OpenAI, { toFile } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAzureSimulator, type AzureSimulator } from '../simulators/azure-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { describeSdkCases } from './cloud-sdk-cases.ts';

const KEY = testKey('azureuser');
const ADMIN = testKey('azureadmin');
const RESOURCE_KEY = 'azure-resource-key-e2e-0001';
const entra = { tenantId: 'contoso-e2e', clientId: 'gateway-app', clientSecret: 'entra-secret-value-0001' };
const entraKey = (secret: string) => JSON.stringify({ tenant_id: entra.tenantId, client_id: entra.clientId, client_secret: secret });
const DEPLOYMENTS = { 'gpt-az': 'gpt-4o-prod', 'gpt-3.5-turbo-instruct': 'instruct-prod', 'text-embedding-3-small': 'embed-prod', 'dall-e-2': 'image-prod', 'tts-1': 'tts-prod', 'whisper-1': 'whisper-prod' };
let sim: AzureSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  sim = await startAzureSimulator({ apiKey: RESOURCE_KEY, deployments: Object.values(DEPLOYMENTS), entra });
  gateway = await startTestGateway({
    channels: [
      { name: 'azure-key', type: 'azure-openai', base_url: `${sim.url}/openai/v1`, api_key: RESOURCE_KEY, azure: { api_version: '2024-10-21' }, models: Object.keys(DEPLOYMENTS), model_mapping: DEPLOYMENTS },
      { name: 'azure-entra', type: 'azure-openai', base_url: sim.url, api_key: entraKey(entra.clientSecret), azure: { path_style: 'v1', entra_authority: sim.url }, models: ['gpt-az-v1'], model_mapping: { 'gpt-az-v1': 'gpt-4o-prod' } },
      { name: 'azure-wrong-key', type: 'azure-openai', base_url: sim.url, api_key: 'not-the-resource-key', models: ['gpt-wrong'], model_mapping: { 'gpt-wrong': 'gpt-4o-prod' } },
      { name: 'azure-wrong-secret', type: 'azure-openai', base_url: sim.url, api_key: entraKey('wrong-secret-value'), azure: { entra_authority: sim.url }, models: ['gpt-wrong-entra'], model_mapping: { 'gpt-wrong-entra': 'gpt-4o-prod' } },
    ],
    models: [
      ...['gpt-az', 'gpt-az-v1', 'gpt-wrong', 'gpt-wrong-entra', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 2 })),
      { id: 'dall-e-2', per_image: { '1024x1024': 0.02, '512x512': 0.018 } },
      { id: 'tts-1', per_mchars: 15 },
      { id: 'whisper-1', per_audio_minute: 0.006 },
    ],
    users: [{ name: 'ada', balance: 50 }, { name: 'root', role: 'admin', balance: 0 }],
    keys: [{ name: 'ada', key: KEY, user: 'ada' }, { name: 'root', key: ADMIN, user: 'root' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await sim?.close();
});

afterEach(() => vi.useRealTimers());

describeSdkCases([
  { model: 'gpt-az', greeting: 'Hello from the OpenAI simulator', label: 'Azure deployments + api-key' },
  { model: 'gpt-az-v1', greeting: 'Hello from the OpenAI simulator', label: 'Azure v1 + Entra ID' },
], () => gateway.url, KEY);

const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const ask = (model: string) => client().chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello Azure' }] });
const last = () => sim.requests.filter((request) => !request.path.includes('/oauth2/')).at(-1)!;

describe('Azure wire', () => {
  it('calls the deployment path with the api-version and the api-key header', async () => {
    await ask('gpt-az');
    expect(last().path).toBe('/openai/deployments/gpt-4o-prod/chat/completions');
    expect(last().query.get('api-version')).toBe('2024-10-21');
    expect(last().headers['api-key']).toBe(RESOURCE_KEY);
    expect(last().headers.authorization).toBeUndefined();
  });

  it('calls the v1 path with the deployment as the model and one cached Entra ID token', async () => {
    await ask('gpt-az-v1');
    const issued = sim.tokensIssued;
    await ask('gpt-az-v1');
    expect(sim.tokensIssued).toBe(issued);
    expect(last().path).toBe('/openai/v1/chat/completions');
    expect(last().body).toMatchObject({ model: 'gpt-4o-prod' });
    expect(String(last().headers.authorization)).toMatch(/^Bearer eyJ0eXAiOiJKV1Qi\.sim\./);
    expect(last().headers['api-key']).toBeUndefined();
  });

  it('renews the Entra ID token before it expires', async () => {
    await ask('gpt-az-v1');
    const issued = sim.tokensIssued;
    // 56 minutes on: the token (3599 s) is inside its five-minute renewal margin, still valid at Azure.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 56 * 60_000 });
    await ask('gpt-az-v1');
    expect(sim.tokensIssued).toBe(issued + 1);
    await ask('gpt-az-v1');
    expect(sim.tokensIssued).toBe(issued + 1);
  });

  it('serves completions, embeddings, images, audio and responses at Azure\'s paths', async () => {
    const paths: string[] = [];
    const seen = () => paths.push(last().path);
    expect((await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this' })).choices[0]!.text.length).toBeGreaterThan(0);
    seen();
    expect((await client().embeddings.create({ model: 'text-embedding-3-small', input: 'vector' })).data[0]!.embedding.length).toBeGreaterThan(0);
    seen();
    expect((await client().images.generate({ model: 'dall-e-2', prompt: 'a lighthouse', size: '512x512' })).data).toHaveLength(1);
    seen();
    const image = await toFile(Buffer.from('PNG-bytes'), 'in.png', { type: 'image/png' });
    expect((await client().images.edit({ model: 'dall-e-2', image, prompt: 'add a boat', size: '512x512' })).data).toHaveLength(1);
    seen();
    const speech = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello listener', response_format: 'mp3' });
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toContain('Hello listener');
    seen();
    const file = await toFile(Buffer.from('RIFF----WAVEfmt ' + 'a'.repeat(100)), 'talk.wav', { type: 'audio/wav' });
    expect((await client().audio.transcriptions.create({ model: 'whisper-1', file })).text).toContain('talk.wav');
    seen();
    expect((await client().responses.create({ model: 'gpt-az', input: 'responses on Azure' })).output_text).toContain('responses on Azure');
    seen();
    expect(paths).toEqual([
      '/openai/deployments/instruct-prod/completions', '/openai/deployments/embed-prod/embeddings',
      '/openai/deployments/image-prod/images/generations', '/openai/deployments/image-prod/images/edits',
      '/openai/deployments/tts-prod/audio/speech', '/openai/deployments/whisper-prod/audio/transcriptions',
      '/openai/v1/responses',
    ]);
    expect(last().body).toMatchObject({ model: 'gpt-4o-prod' });
  });
});

describe('Azure credentials', () => {
  const channelRow = (name: string) => gateway.database.db.selectFrom('channels').select(['id', 'status', 'status_reason', 'api_keys_encrypted']).where('name', '=', name).executeTakeFirstOrThrow();

  it('answers a clear 502 for a refused api-key and disables the channel with its reason', async () => {
    const error = await ask('gpt-wrong').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: 'upstream_credentials_refused' });
    expect(String((error as Error).message)).not.toContain('not-the-resource-key');
    const row = await channelRow('azure-wrong-key');
    expect(row.status).not.toBe('enabled');
    expect(row.status_reason).toContain('401');
  });

  it('answers a clear 502 when Entra ID refuses the client secret, and disables the channel with its reason', async () => {
    const error = await ask('gpt-wrong-entra').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: 'upstream_credentials_refused' });
    expect(String((error as Error).message)).not.toContain('wrong-secret-value');
    const row = await channelRow('azure-wrong-secret');
    expect(row.status).not.toBe('enabled');
    expect(row.status_reason).toContain('invalid_client');
  });

  it('refuses an admin channel without what its type needs with a 400 naming the field', async () => {
    const post = async (body: object) => {
      const response = await fetch(`${gateway.url}/api/admin/channels`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() as { error: { param: string | null } } };
    };
    const base = { name: 'half-made', api_key: 'k', models: ['m'] };
    expect(await post({ ...base, type: 'azure-openai' })).toMatchObject({ status: 400, body: { error: { param: 'base_url' } } });
    expect(await post({ ...base, type: 'vertex' })).toMatchObject({ status: 400, body: { error: { param: 'vertex' } } });
    expect(await post({ ...base, type: 'azure-openai', base_url: sim.url, azure: { path_style: 'v2' } })).toMatchObject({ status: 400, body: { error: { param: 'azure.path_style' } } });
    const created = await post({ ...base, type: 'azure-openai', base_url: sim.url, azure: { path_style: 'v1' } }) as unknown as { status: number; body: { id: number } };
    expect(created.status).toBe(201);
    const patched = await fetch(`${gateway.url}/api/admin/channels/${created.body.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'openai' }) });
    expect(patched.status).toBe(200);
    const view = await patched.json() as Record<string, unknown>;
    expect(view.type).toBe('openai');
    expect(view).not.toHaveProperty('azure');
  });

  it('keeps keys encrypted at rest and out of the admin view, which shows the Azure settings', async () => {
    for (const name of ['azure-key', 'azure-entra']) expect((await channelRow(name)).api_keys_encrypted).not.toMatch(/azure-resource-key|entra-secret-value/);
    const response = await fetch(`${gateway.url}/api/admin/channels`, { headers: { authorization: `Bearer ${ADMIN}` } });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/azure-resource-key|entra-secret-value/);
    const channels = (JSON.parse(text) as { data: { name: string }[] }).data;
    expect(channels.find((channel) => channel.name === 'azure-entra')).toMatchObject({ type: 'azure-openai', azure: { path_style: 'v1', entra_authority: sim.url } });
    expect(channels.find((channel) => channel.name === 'azure-key')).toMatchObject({ base_url: sim.url, azure: { api_version: '2024-10-21' } });
  });

  it('tests Azure channels with the admin channel test, in either path style and authentication', async () => {
    for (const [name, model] of [['azure-key', 'gpt-az'], ['azure-entra', 'gpt-az-v1']] as const) {
      const { id } = await channelRow(name);
      const response = await fetch(`${gateway.url}/api/admin/channels/${id}/test`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ model }) });
      expect(await response.json()).toMatchObject({ ok: true, status: 200 });
      expect(last().path).toBe(name === 'azure-key' ? '/openai/deployments/gpt-4o-prod/chat/completions' : '/openai/v1/chat/completions');
    }
    const { id } = await channelRow('azure-wrong-secret');
    const refused = await fetch(`${gateway.url}/api/admin/channels/${id}/test`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{}' });
    const result = await refused.json() as { ok: boolean; error: string };
    expect(result.ok).toBe(false);
    expect(result.error).toContain('invalid_client');
    expect(result.error).not.toContain('wrong-secret-value');
  });
});
