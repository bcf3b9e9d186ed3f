// The Azure simulator checked by the official openai client's AzureOpenAI (deployment paths, api-key and
// Entra ID tokens) and by the OpenAI client on the v1 path style, as Microsoft's documentation uses them.
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzureSimulator, AZURE_SCOPE, type AzureSimulator } from './azure-simulator.ts';

const KEY = 'azure-resource-key-1234';
const entra = { tenantId: 'contoso-tenant', clientId: 'app-0001', clientSecret: 'app-secret-value' };
let sim: AzureSimulator;

beforeAll(async () => {
  sim = await startAzureSimulator({ apiKey: KEY, deployments: ['gpt-4o-prod', 'embed-prod'], entra });
});
afterAll(() => sim.close());

async function entraToken(secret = entra.clientSecret): Promise<Response> {
  return fetch(`${sim.url}/${entra.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: entra.clientId, client_secret: secret, scope: AZURE_SCOPE }),
  });
}

describe('Azure simulator, deployment paths (AzureOpenAI)', () => {
  const azure = () => new AzureOpenAI({ endpoint: sim.url, apiKey: KEY, apiVersion: '2024-10-21', maxRetries: 0 });

  it('answers chat at /openai/deployments/{deployment}/chat/completions with the api-version', async () => {
    sim.reset();
    const completion = await azure().chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'Hello Azure' }] });
    expect(completion.choices[0]?.message.content).toContain('Hello Azure');
    expect(completion.model).toBe('gpt-4o-prod');
    expect(sim.requests[0]?.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions');
    expect(sim.requests[0]?.query.get('api-version')).toBe('2024-10-21');
    expect(sim.requests[0]?.headers['api-key']).toBe(KEY);
  });

  it('streams chat and serves embeddings', async () => {
    const stream = await azure().chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'stream please' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('stream please');
    const embedding = await azure().embeddings.create({ model: 'embed-prod', input: 'vector me' });
    expect(embedding.data[0]?.embedding.length).toBeGreaterThan(0);
  });

  it('refuses a wrong key and an unknown deployment in Azure\'s shapes', async () => {
    const wrong = new AzureOpenAI({ endpoint: sim.url, apiKey: 'nope', apiVersion: '2024-10-21', maxRetries: 0 });
    await expect(wrong.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
    await expect(azure().chat.completions.create({ model: 'missing', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, code: 'DeploymentNotFound' });
  });

  it('issues Entra ID tokens for the client credentials and accepts them as bearers', async () => {
    const refused = await entraToken('wrong-secret');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    const before = sim.tokensIssued;
    const client = new AzureOpenAI({
      endpoint: sim.url, apiVersion: '2024-10-21', maxRetries: 0,
      azureADTokenProvider: async () => ((await (await entraToken()).json()) as { access_token: string }).access_token,
    });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'with a token' }] });
    expect(completion.choices[0]?.message.content).toContain('with a token');
    expect(sim.tokensIssued).toBe(before + 1);
    const forged = new AzureOpenAI({ endpoint: sim.url, apiVersion: '2024-10-21', maxRetries: 0, azureADTokenProvider: async () => 'forged-token' });
    await expect(forged.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
  });
});

describe('Azure simulator, v1 paths', () => {
  it('answers chat and responses at /openai/v1 (OpenAI client, the key as bearer) and AzureOpenAI\'s api-key', async () => {
    sim.reset();
    const client = new OpenAI({ baseURL: `${sim.url}/openai/v1`, apiKey: KEY, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'v1 hello' }] });
    expect(completion.choices[0]?.message.content).toContain('v1 hello');
    expect(sim.requests[0]?.path).toBe('/openai/v1/chat/completions');
    const azure = new AzureOpenAI({ baseURL: `${sim.url}/openai/v1`, apiKey: KEY, apiVersion: 'preview', maxRetries: 0 });
    const response = await azure.responses.create({ model: 'gpt-4o-prod', input: 'responses on azure' });
    expect(response.output_text).toContain('responses on azure');
    expect(sim.requests[1]?.path).toBe('/openai/v1/responses');
    expect(sim.requests[1]?.headers['api-key']).toBe(KEY);
  });
});
