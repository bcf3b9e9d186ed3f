// The cloud providers as data: Azure's two path styles, Vertex's endpoints, publishers and per-model
// formats, the config file's checks of their settings, and the token cache's renewal discipline.
import { describe, expect, it } from 'vitest';
import { getProvider } from '../../src/providers/registry.ts';
import { configFileSchema } from '../../src/config/config-file-schema.ts';
import { createTokenCache } from '../../src/providers/token-cache.ts';
import { vertexAccessToken } from '../../src/providers/vertex-token.ts';
import { parseEntraCredential } from '../../src/providers/entra-token.ts';
import { UpstreamCredentialError } from '../../src/upstream/upstream-credential-error.ts';

describe('Azure OpenAI provider', () => {
  it('writes deployment paths with the api-version (default the latest GA) and v1 paths without', () => {
    const classic = getProvider('azure-openai', {});
    expect(classic.path('chat', 'my deployment')).toBe('/openai/deployments/my%20deployment/chat/completions?api-version=2024-10-21');
    expect(classic.path('audio-transcriptions', 'whisper')).toBe('/openai/deployments/whisper/audio/transcriptions?api-version=2024-10-21');
    expect(classic.path('responses', 'gpt')).toBe('/openai/v1/responses');
    expect(classic.path('rerank', 'gpt')).toBeNull();
    expect(classic.path('chat', '..')).toBe('/openai/deployments/%2E%2E/chat/completions?api-version=2024-10-21');
    const pinned = getProvider('azure-openai', { azure: { api_version: '2025-04-01-preview' } });
    expect(pinned.path('embeddings', 'embed')).toBe('/openai/deployments/embed/embeddings?api-version=2025-04-01-preview');
    const v1 = getProvider('azure-openai', { azure: { path_style: 'v1' } });
    expect(v1.path('images-generations', 'img')).toBe('/openai/v1/images/generations');
    expect(v1.path('models', 'x')).toBe('/openai/v1/models');
  });

  it('uses the api-key header for a plain key and reads an Entra ID credential from JSON', () => {
    expect(getProvider('azure-openai', {}).authenticate({ method: 'POST', url: 'u', headers: {}, body: null }, 'resource-key')).toEqual({ 'api-key': 'resource-key' });
    expect(parseEntraCredential('{"tenant_id":"t1","client_id":"c","client_secret":"s"}')).toEqual({ tenant_id: 't1', client_id: 'c', client_secret: 's' });
    expect(() => parseEntraCredential('{"tenant_id":"t1"}')).toThrow(UpstreamCredentialError);
    expect(() => parseEntraCredential('{"tenant_id":"../evil","client_id":"c","client_secret":"s"}')).toThrow(UpstreamCredentialError);
  });
});

describe('Vertex AI provider', () => {
  const regional = getProvider('vertex', { vertex: { project: 'my-proj', location: 'europe-west4' } });
  const global = getProvider('vertex', { vertex: { project: 'my-proj', location: 'global' } });

  it('has regional and global endpoints', () => {
    expect(regional.defaultBaseUrl).toBe('https://europe-west4-aiplatform.googleapis.com');
    expect(global.defaultBaseUrl).toBe('https://aiplatform.googleapis.com');
    expect(global.path('chat', 'gemini-2.5-pro')).toBe('/v1/projects/my-proj/locations/global/publishers/google/models/gemini-2.5-pro:generateContent');
  });

  it('speaks Gemini to Google models and Messages to Claude, by model', () => {
    expect(regional.formatFor?.('gemini-2.5-flash')).toBe('gemini-generate');
    expect(regional.formatFor?.('claude-opus-4-6')).toBe('anthropic-messages');
    expect(regional.formatFor?.('anthropic/some-model')).toBe('anthropic-messages');
    expect(regional.path('chat-stream', 'gemini-2.5-flash')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(regional.path('chat-stream', 'claude-opus-4-6')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/anthropic/models/claude-opus-4-6:streamRawPredict');
    // Claude's counting is one endpoint for every model, the model named in the body.
    expect(regional.path('count-tokens', 'claude-opus-4-6')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/anthropic/models/count-tokens:rawPredict');
    expect(regional.path('chat', 'claude-sonnet-4-5@20250929')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    expect(regional.path('chat', '../x')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/%2E%2E/models/x:generateContent');
    expect(regional.path('chat', 'a/b/../c')).toBe('/v1/projects/my-proj/locations/europe-west4/publishers/a/models/b%2F..%2Fc:generateContent');
    expect(regional.path('embeddings', 'text-embedding-005')).toMatch(/publishers\/google\/models\/text-embedding-005:predict$/);
    expect(regional.path('embeddings', 'gemini-embedding-001')).toMatch(/gemini-embedding-001:predict$/);
    expect(regional.path('embeddings', 'gemini-embedding-2-preview')).toMatch(/publishers\/google\/models\/gemini-embedding-2-preview:embedContent$/);
    expect([regional.embeddingInputsPerCall?.('gemini-embedding-2-preview'), regional.embeddingInputsPerCall?.('gemini-embedding-001')]).toEqual([1, undefined]);
  });

  it('writes the count-tokens body with the bare model id, and the embedContent body from the first request', () => {
    const counted = JSON.parse(String(regional.prepareBody!('/x/models/count-tokens:rawPredict', JSON.stringify({ model: 'anthropic/claude-haiku-4-5', messages: [] }))));
    expect(counted).toEqual({ model: 'claude-haiku-4-5', messages: [], anthropic_version: 'vertex-2023-10-16' });
    const batch = JSON.stringify({ requests: [{ model: 'models/x', content: { parts: [{ text: 'hi' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 8 }] });
    expect(JSON.parse(String(regional.prepareBody!('/x/models/gemini-embedding-2-preview:embedContent', batch)))).toEqual({ content: { role: 'user', parts: [{ text: 'hi' }] }, embedContentConfig: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 8 } });
  });

  it('writes the Claude body for rawPredict and the predict body for embeddings', () => {
    const claude = JSON.parse(String(regional.prepareBody!('/x/models/claude:rawPredict', JSON.stringify({ model: 'claude', max_tokens: 5, messages: [] }))));
    expect(claude).toEqual({ max_tokens: 5, messages: [], anthropic_version: 'vertex-2023-10-16' });
    const wrapped = JSON.stringify({ generateContentRequest: { model: 'models/gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'count' }] }] } });
    expect(JSON.parse(String(regional.prepareBody!('/x/models/gemini-2.5-flash:countTokens', wrapped)))).toEqual({ contents: [{ role: 'user', parts: [{ text: 'count' }] }] });
    const gemini = '{"contents":[]}';
    expect(regional.prepareBody!('/x/models/gemini:countTokens', gemini)).toBe(gemini);
    expect(regional.prepareBody!('/x/models/gemini:generateContent', gemini)).toBe(gemini);
  });

  it('refuses a key that is not a service-account JSON as a credential problem', async () => {
    await expect(vertexAccessToken('not json at all', undefined)).rejects.toBeInstanceOf(UpstreamCredentialError);
    await expect(vertexAccessToken('{"client_email":"x@y"}', undefined)).rejects.toThrow(/client_email and private_key/);
    await expect(vertexAccessToken('{"client_email":"x@y","private_key":"-----BEGIN PRIVATE KEY----- mangled"}', undefined)).rejects.toThrow(/not a PEM private key/);
  });
});

describe('config file', () => {
  const parse = (channel: object) => configFileSchema.safeParse({ channels: [{ name: 'c', api_key: 'k', models: ['m'], ...channel }] });

  it('requires base_url for Azure and project and location for Vertex, and keeps each block to its type', () => {
    expect(parse({ type: 'azure-openai' }).error?.issues[0]?.path).toEqual(['channels', 0, 'base_url']);
    expect(parse({ type: 'azure-openai', base_url: 'https://r.openai.azure.com', azure: { path_style: 'v1' } }).success).toBe(true);
    expect(parse({ type: 'vertex' }).error?.issues[0]?.path).toEqual(['channels', 0, 'vertex']);
    expect(parse({ type: 'vertex', vertex: { project: 'my-proj', location: 'us central' } }).success).toBe(false);
    expect(parse({ type: 'vertex', vertex: { project: 'my-proj', location: 'global' } }).success).toBe(true);
    expect(parse({ type: 'openai', vertex: { project: 'my-proj', location: 'global' } }).success).toBe(false);
  });
});

describe('token cache', () => {
  it('shares one fetch between concurrent callers and renews five minutes before expiry', async () => {
    let clock = 1_000_000;
    let fetched = 0;
    const cache = createTokenCache(() => clock);
    const fetchToken = async () => ({ accessToken: `t${++fetched}`, expiresAt: clock + 3600_000 });
    expect(await Promise.all([cache.get('c', fetchToken), cache.get('c', fetchToken)])).toEqual(['t1', 't1']);
    clock += 3600_000 - 300_001;
    expect(await cache.get('c', fetchToken)).toBe('t1');
    clock += 2;
    expect(await cache.get('c', fetchToken)).toBe('t2');
  });

  it('renews a short-lived token half-way through its life', async () => {
    let clock = 0;
    const cache = createTokenCache(() => clock);
    let fetched = 0;
    const fetchToken = async () => ({ accessToken: `t${++fetched}`, expiresAt: clock + 60_000 });
    await cache.get('c', fetchToken);
    clock = 29_999;
    expect(await cache.get('c', fetchToken)).toBe('t1');
    clock = 30_001;
    expect(await cache.get('c', fetchToken)).toBe('t2');
  });
});
