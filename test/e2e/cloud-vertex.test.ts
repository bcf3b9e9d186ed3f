// End to end on a Vertex AI channel: the official SDKs → the gateway → the Vertex simulator, which checks
// the service account's RS256-signed JWT and refuses unknown and expired OAuth tokens. One channel carries
// a Gemini and a Claude model; each is spoken in its own format (generateContent, rawPredict).
import { generateKeyPairSync } from 'node:crypto';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVertexSimulator, type VertexSimulator } from '../simulators/vertex-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { describeSdkCases } from './cloud-sdk-cases.ts';

const KEY = testKey('vertexuser');
const ADMIN = testKey('vertexadmin');
const PROJECT = 'gateway-sim-1';
const EMAIL = 'relay@gateway-sim-1.iam.gserviceaccount.com';
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const strangerPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const serviceAccount = (key: string) => JSON.stringify({ type: 'service_account', project_id: PROJECT, private_key_id: 'k1', private_key: key, client_email: EMAIL, token_uri: 'https://oauth2.googleapis.com/token' });
let sim: VertexSimulator;
/** The first channel of gemini-breaker alone, so its scripted failures reach no other channel. */
let flaky: VertexSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  sim = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [EMAIL]: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  flaky = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [EMAIL]: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  const vertex = { project: PROJECT, location: 'us-east5', token_url: `${sim.url}/token` };
  gateway = await startTestGateway({
    channels: [
      {
        name: 'vertex', type: 'vertex', base_url: sim.url, api_key: serviceAccount(privatePem), vertex,
        models: ['gemini-vx', 'claude-vx', 'claude-prefixed', 'embed-vx', 'embed2-vx'],
        model_mapping: { 'gemini-vx': 'gemini-2.5-flash', 'claude-vx': 'claude-sonnet-4-6', 'claude-prefixed': 'anthropic/claude-haiku-4-5', 'embed-vx': 'gemini-embedding-001', 'embed2-vx': 'gemini-embedding-2-preview' },
      },
      { name: 'vertex-forged', type: 'vertex', base_url: sim.url, api_key: serviceAccount(strangerPem), vertex, models: ['gemini-forged'], model_mapping: { 'gemini-forged': 'gemini-2.5-flash' } },
      { name: 'vertex-first', type: 'vertex', base_url: sim.url, api_key: serviceAccount(privatePem), vertex: { ...vertex, location: 'global' }, models: ['gemini-failover'], priority: 10, model_mapping: { 'gemini-failover': 'gemini-2.5-pro' } },
      { name: 'vertex-second', type: 'vertex', base_url: sim.url, api_key: serviceAccount(privatePem), vertex, models: ['gemini-failover'], model_mapping: { 'gemini-failover': 'gemini-2.5-pro' } },
      { name: 'vertex-breaker-1', type: 'vertex', base_url: flaky.url, api_key: serviceAccount(privatePem), vertex: { ...vertex, token_url: `${flaky.url}/token` }, models: ['gemini-breaker'], priority: 10, model_mapping: { 'gemini-breaker': 'gemini-2.5-pro' } },
      { name: 'vertex-breaker-2', type: 'vertex', base_url: sim.url, api_key: serviceAccount(privatePem), vertex, models: ['gemini-breaker'], model_mapping: { 'gemini-breaker': 'gemini-2.5-pro' } },
    ],
    models: ['gemini-vx', 'claude-vx', 'claude-prefixed', 'embed-vx', 'embed2-vx', 'gemini-forged', 'gemini-failover', 'gemini-breaker'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 4 })),
    users: [{ name: 'vera', balance: 50 }, { name: 'root', role: 'admin', balance: 0 }],
    keys: [{ name: 'vera', key: KEY, user: 'vera' }, { name: 'root', key: ADMIN, user: 'root' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await sim?.close();
  await flaky?.close();
});
afterEach(() => vi.useRealTimers());

describeSdkCases([
  { model: 'gemini-vx', greeting: 'Hello from the Gemini simulator', label: 'Gemini on Vertex' },
  { model: 'claude-vx', greeting: 'Hello from the Anthropic simulator', label: 'Claude on Vertex' },
], () => gateway.url, KEY);

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const ask = (model: string, content = 'Hello there') => openai().chat.completions.create({ model, max_tokens: 50, messages: [{ role: 'user', content }] });
const admin = async (method: string, path: string, body?: object) => {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, text: await response.text() };
};

describe('Vertex wire', () => {
  it('calls Claude at rawPredict / streamRawPredict with anthropic_version and without model, Gemini at generateContent', async () => {
    sim.reset();
    await ask('claude-vx');
    await ask('claude-prefixed');
    await ask('gemini-vx');
    const calls = sim.requests.filter((request) => request.path !== '/token');
    expect(calls.map((request) => request.path)).toEqual([
      `/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6:rawPredict`,
      `/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5:rawPredict`,
      `/v1/projects/${PROJECT}/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent`,
    ]);
    expect(calls[0]!.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
    expect(calls[0]!.body).not.toHaveProperty('model');
    expect(String(calls[0]!.headers.authorization)).toMatch(/^Bearer ya29\.sim-/);
  });

  it('embeds through predict for the openai and Google clients', async () => {
    sim.reset();
    const openaiAnswer = await openai().embeddings.create({ model: 'embed-vx', input: ['first text', 'second text'], dimensions: 16 });
    expect(openaiAnswer.data.map((item) => [item.index, item.embedding.length])).toEqual([[0, 16], [1, 16]]);
    const sent = sim.requests.filter((request) => request.path !== '/token').at(-1)!;
    expect(sent.path).toBe(`/v1/projects/${PROJECT}/locations/us-east5/publishers/google/models/gemini-embedding-001:predict`);
    expect(sent.body).toEqual({ instances: [{ content: 'first text' }, { content: 'second text' }], parameters: { outputDimensionality: 16 } });
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const googleAnswer = await google.models.embedContent({ model: 'embed-vx', contents: ['one', 'two', 'three'], config: { outputDimensionality: 8, taskType: 'RETRIEVAL_QUERY' } });
    expect(googleAnswer.embeddings?.map((embedding) => embedding.values?.length)).toEqual([8, 8, 8]);
    expect(sim.requests.at(-1)!.body).toMatchObject({ instances: [{ content: 'one', task_type: 'RETRIEVAL_QUERY' }, { content: 'two' }, { content: 'three' }] });
  });

  it('embeds with a newer Gemini embedding model through embedContent, one input per call, for the openai and Google clients', async () => {
    sim.reset();
    const openaiAnswer = await openai().embeddings.create({ model: 'embed2-vx', input: 'just one text here', dimensions: 16 });
    expect(openaiAnswer.data.map((item) => [item.index, item.embedding.length])).toEqual([[0, 16]]);
    // Vertex reports the prompt's tokens for embedContent (four words at the simulator): the client is shown them.
    expect(openaiAnswer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    const sent = sim.requests.filter((request) => request.path !== '/token').at(-1)!;
    expect(sent.path).toBe(`/v1/projects/${PROJECT}/locations/us-east5/publishers/google/models/gemini-embedding-2-preview:embedContent`);
    expect(sent.body).toEqual({ content: { role: 'user', parts: [{ text: 'just one text here' }] }, embedContentConfig: { outputDimensionality: 16 } });
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const googleAnswer = await google.models.embedContent({ model: 'embed2-vx', contents: 'one', config: { outputDimensionality: 8, taskType: 'RETRIEVAL_QUERY' } });
    expect(googleAnswer.embeddings?.map((embedding) => embedding.values?.length)).toEqual([8]);
    expect(sim.requests.at(-1)!.body).toEqual({ content: { role: 'user', parts: [{ text: 'one' }] }, embedContentConfig: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 8 } });
    // Several inputs cannot be embedded in one embedContent call: a clear 400 naming the field, nothing sent.
    const calls = sim.requests.length;
    const refused = await openai().embeddings.create({ model: 'embed2-vx', input: ['first', 'second'] }).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 400, param: 'input', code: 'unsupported_for_model' });
    expect(String((refused as Error).message)).toContain('one input per request');
    const batch = await fetch(`${gateway.url}/v1beta/models/embed2-vx:batchEmbedContents`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }] }) });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect(sim.requests.length).toBe(calls);
  });

  it('counts Gemini tokens at :countTokens and Claude tokens at count-tokens:rawPredict, both exact', async () => {
    const gemini = await fetch(`${gateway.url}/v1beta/models/gemini-vx:countTokens`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ generateContentRequest: { model: 'models/gemini-vx', contents: [{ role: 'user', parts: [{ text: 'count these four words' }] }] } }) });
    expect(gemini.headers.get('x-gateway-token-count')).toBe('exact');
    expect(await gemini.json()).toMatchObject({ totalTokens: 4 });
    expect(sim.requests.at(-1)!.path).toMatch(/gemini-2\.5-flash:countTokens$/);
    expect(sim.requests.at(-1)!.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'count these four words' }] }] });
    const claude = await fetch(`${gateway.url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-vx', messages: [{ role: 'user', content: 'count me' }] }) });
    expect(claude.status).toBe(200);
    expect(claude.headers.get('x-gateway-token-count')).toBe('exact');
    expect(await claude.json()).toEqual({ input_tokens: 2 });
    expect(sim.requests.at(-1)!.path).toBe(`/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict`);
    expect(sim.requests.at(-1)!.body).toEqual({ model: 'claude-sonnet-4-6', anthropic_version: 'vertex-2023-10-16', messages: [{ role: 'user', content: 'count me' }] });
    // A publisher-prefixed mapping names the bare model id in the body; the Anthropic SDK sees the exact count.
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const counted = await anthropic.messages.countTokens({ model: 'claude-prefixed', system: 'one two', messages: [{ role: 'user', content: 'three four five' }] });
    expect(counted.input_tokens).toBe(5);
    expect(sim.requests.at(-1)!.body).toMatchObject({ model: 'claude-haiku-4-5', system: 'one two' });
  });

  it('reuses one token, renews it before it expires, and never sends an expired one', async () => {
    await ask('gemini-vx');
    const issued = sim.tokensIssued;
    await ask('gemini-vx');
    expect(sim.tokensIssued).toBe(issued);
    // 59 minutes on: the token (3599 s) has a minute left, inside the renewal margin.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 59 * 60_000 });
    expect((await ask('gemini-vx', 'after renewal')).choices[0]!.message.content).toContain('after renewal');
    expect(sim.tokensIssued).toBe(issued + 1);
    // Two hours on: every earlier token has expired at the simulator.
    vi.setSystemTime(Date.now() + 2 * 3600_000);
    expect((await ask('claude-vx', 'much later')).choices[0]!.message.content).toContain('much later');
    expect(sim.tokensIssued).toBe(issued + 2);
    expect(sim.expiredTokenRefusals).toBe(0);
  });

  it('fails over between Vertex channels on a 503, the global location in the path', async () => {
    await ask('gemini-vx'); // a token in the cache: the scripted answers are for the model calls
    sim.reset();
    sim.script({ status: 503 }, { status: 503 });
    const answer = await ask('gemini-failover', 'failover please');
    expect(answer.choices[0]!.message.content).toContain('failover please');
    const calls = sim.requests.filter((request) => request.path !== '/token').map((request) => request.path);
    expect(calls[0]).toContain('/locations/global/');
    expect(calls.at(-1)).toContain('/locations/us-east5/');
  });

  it('opens the circuit of a failing Vertex channel like any other', async () => {
    await ask('gemini-breaker', 'warm up');
    expect(flaky.requests.at(-1)!.path).toMatch(/:generateContent$/);
    // Two 503s per call (a retry), then the other channel answers; the fifth failure opens the circuit.
    flaky.script(...Array.from({ length: 6 }, () => ({ status: 503 })));
    for (let i = 0; i < 3; i++) expect((await ask('gemini-breaker', `call ${i}`)).choices[0]!.message.content).toContain(`call ${i}`);
    const seen = flaky.requests.length;
    expect((await ask('gemini-breaker', 'circuit open')).choices[0]!.message.content).toContain('circuit open');
    expect(flaky.requests.length).toBe(seen);
  });
});

describe('Vertex credentials', () => {
  it('answers a clear 502 when Google refuses the service account, and disables the channel with its reason', async () => {
    const error = await ask('gemini-forged').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: 'upstream_credentials_refused' });
    expect(String((error as Error).message)).toContain("'vertex-forged'");
    expect(String((error as Error).message)).not.toContain('PRIVATE KEY');
    const row = await gateway.database.db.selectFrom('channels').select(['status', 'status_reason']).where('name', '=', 'vertex-forged').executeTakeFirstOrThrow();
    expect(row.status).not.toBe('enabled');
    expect(row.status_reason).toContain('invalid_grant');
    await expect(ask('gemini-forged')).rejects.toMatchObject({ status: 503 });
  });

  it('disables the channel whose token Google revoked early, and the next channel gets a fresh token', async () => {
    await ask('gemini-failover', 'a token in the cache');
    sim.revokeTokens();
    const issued = sim.tokensIssued;
    // vertex-first is refused (401) and disabled; vertex-second shares its service account, so without
    // dropping the refused token it would be refused too.
    expect((await ask('gemini-failover', 'after revocation')).choices[0]!.message.content).toContain('after revocation');
    expect(sim.tokensIssued).toBe(issued + 1);
    const first = await gateway.database.db.selectFrom('channels').select(['id', 'status', 'status_reason']).where('name', '=', 'vertex-first').executeTakeFirstOrThrow();
    expect(first.status).not.toBe('enabled');
    expect(first.status_reason).toContain('401');
    const retest = JSON.parse((await admin('POST', `/api/admin/channels/${first.id}/test`, { reenable: true })).text) as { ok: boolean; reenabled: boolean };
    expect(retest).toMatchObject({ ok: true, reenabled: true });
    expect(sim.tokensIssued).toBe(issued + 1);
  });

  it('keeps the key encrypted at rest and out of every admin answer, and the channel test speaks each model\'s format', async () => {
    const stored = await gateway.database.db.selectFrom('channels').select(['id', 'api_keys_encrypted']).where('name', '=', 'vertex').executeTakeFirstOrThrow();
    expect(stored.api_keys_encrypted).not.toContain('PRIVATE KEY');
    expect(stored.api_keys_encrypted).not.toContain(EMAIL);
    const listed = await admin('GET', '/api/admin/channels');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('PRIVATE KEY');
    expect(JSON.parse(listed.text).data.find((channel: { name: string }) => channel.name === 'vertex')).toMatchObject({ type: 'vertex', vertex: { project: PROJECT, location: 'us-east5' } });
    for (const model of ['claude-vx', 'gemini-vx']) {
      const tested = await admin('POST', `/api/admin/channels/${stored.id}/test`, { model });
      expect(JSON.parse(tested.text)).toMatchObject({ ok: true, status: 200 });
    }
  });

  it('meters Vertex calls like any other', async () => {
    const rows = async () => {
      await gateway.recorder.flush();
      return gateway.database.db.selectFrom('usage_logs').innerJoin('channels', 'channels.id', 'usage_logs.channel_id')
        .select(['usage_logs.model', 'usage_logs.upstream_model', 'usage_logs.cost_micros', 'usage_logs.status']).where('channels.name', '=', 'vertex').orderBy('usage_logs.id').execute();
    };
    const before = (await rows()).length;
    await ask('claude-vx', 'metered claude');
    await ask('gemini-vx', 'metered gemini');
    const added = (await rows()).slice(before);
    expect(added.map((row) => [row.model, row.upstream_model, row.status])).toEqual([['claude-vx', 'claude-sonnet-4-6', 200], ['gemini-vx', 'gemini-2.5-flash', 200]]);
    expect(added.every((row) => row.cost_micros > 0)).toBe(true);
  });
});
