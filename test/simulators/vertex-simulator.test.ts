// The Vertex simulator checked by the official @google/genai client in Vertex mode (its own service-account
// authentication through google-auth-library), and its token endpoint checked against forged and stale JWTs.
import { generateKeyPairSync, sign } from 'node:crypto';
import { GoogleGenAI } from '@google/genai';
import { JWT } from 'google-auth-library';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVertexSimulator, GOOGLE_TOKEN_AUDIENCE, type VertexSimulator } from './vertex-simulator.ts';

const PROJECT = 'sim-project-1';
const EMAIL = 'gateway@sim-project-1.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const otherPrivate = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
let sim: VertexSimulator;

beforeAll(async () => {
  sim = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [EMAIL]: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
});
afterAll(() => sim.close());
afterEach(() => vi.useRealTimers());

/** google-auth-library's own JWT client, its token request sent to the simulator instead of Google. */
function jwtClient(): JWT {
  const client = new JWT({ email: EMAIL, key: privatePem, scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
  client.transporter.interceptors.request.add({ resolved: async (config) => ({ ...config, url: new URL(`${sim.url}/token`) }) });
  return client;
}

const genai = () => new GoogleGenAI({ vertexai: true, project: PROJECT, location: 'us-central1', googleAuthOptions: { authClient: jwtClient() as never }, httpOptions: { baseUrl: sim.url } });

function assertion(claims: Record<string, unknown>, key = keys.privateKey): string {
  const head = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${head}.${body}.${sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key).toString('base64url')}`;
}

async function exchange(jwt: string): Promise<Response> {
  return fetch(`${sim.url}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt }) });
}

const now = () => Math.floor(Date.now() / 1000);
const goodClaims = () => ({ iss: EMAIL, aud: GOOGLE_TOKEN_AUDIENCE, scope: 'https://www.googleapis.com/auth/cloud-platform', iat: now(), exp: now() + 3600 });

describe('Vertex simulator with @google/genai in Vertex mode', () => {
  it('generates, streams and embeds through the publisher model paths with an OAuth token', async () => {
    sim.reset();
    const ai = genai();
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello Vertex' });
    expect(answer.text).toContain('Hello Vertex');
    expect(sim.requests.map((request) => request.path)).toEqual(['/token', `/v1beta1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`]);
    let streamed = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'stream it' })) streamed += chunk.text ?? '';
    expect(streamed).toContain('stream it');
    expect(sim.requests.at(-1)?.query.get('alt')).toBe('sse');
    const embedded = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'embed me', config: { outputDimensionality: 8 } });
    expect(embedded.embeddings?.[0]?.values).toHaveLength(8);
    expect(sim.requests.at(-1)?.path).toMatch(/gemini-embedding-001:predict$/);
  });

  it('embeds with a newer Gemini embedding model through embedContent, as the SDK chooses it, and refuses predict for it', async () => {
    sim.reset();
    const embedded = await genai().models.embedContent({ model: 'gemini-embedding-2-preview', contents: 'embed me too', config: { outputDimensionality: 12, taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc' } });
    expect(embedded.embeddings?.[0]?.values).toHaveLength(12);
    expect(embedded.embeddings?.[0]?.statistics?.tokenCount).toBe(3);
    const sent = sim.requests.at(-1)!;
    expect(sent.path).toBe(`/v1beta1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-embedding-2-preview:embedContent`);
    expect(sent.body).toMatchObject({ content: { parts: [{ text: 'embed me too' }] }, embedContentConfig: { outputDimensionality: 12, taskType: 'RETRIEVAL_DOCUMENT', title: 'Doc' } });
    const { access_token: token } = await (await exchange(assertion(goodClaims()))).json() as { access_token: string };
    const predict = await fetch(`${sim.url}/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-embedding-2-preview:predict`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ instances: [{ content: 'x' }] }) });
    expect(predict.status).toBe(400);
  });
});

describe('Vertex simulator token endpoint', () => {
  it('refuses a JWT signed with another key, for another audience, or out of its time', async () => {
    expect(await (await exchange(assertion(goodClaims(), otherPrivate))).json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    expect((await exchange(assertion({ ...goodClaims(), aud: 'https://elsewhere.example/token' }))).status).toBe(400);
    expect((await exchange(assertion({ ...goodClaims(), iat: now() - 7200, exp: now() - 3600 }))).status).toBe(400);
    expect((await exchange(assertion({ ...goodClaims(), iss: 'stranger@example.iam.gserviceaccount.com' }))).status).toBe(400);
  });

  it('issues a token for a good JWT and refuses it once expired with Google\'s 401', async () => {
    const issued = await exchange(assertion(goodClaims()));
    const { access_token: token, expires_in: lifetime } = await issued.json() as { access_token: string; expires_in: number };
    const path = `${sim.url}/v1/projects/${PROJECT}/locations/global/publishers/google/models/gemini-2.5-flash:generateContent`;
    const call = () => fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
    expect((await call()).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (lifetime + 1) * 1000 });
    const expired = await call();
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED', details: [{ reason: 'ACCESS_TOKEN_EXPIRED' }] } });
  });

  it('answers Claude at rawPredict only with anthropic_version and without model', async () => {
    const { access_token: token } = await (await exchange(assertion(goodClaims()))).json() as { access_token: string };
    const path = `${sim.url}/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6:rawPredict`;
    const call = (body: object) => fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const base = { max_tokens: 64, messages: [{ role: 'user', content: 'Hi Claude' }] };
    expect((await call(base)).status).toBe(400);
    expect((await call({ ...base, anthropic_version: 'vertex-2023-10-16', model: 'claude-sonnet-4-6' })).status).toBe(400);
    const answer = await call({ ...base, anthropic_version: 'vertex-2023-10-16' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ type: 'message', model: 'claude-sonnet-4-6', content: [{ type: 'text' }] });
  });

  it('counts Claude tokens at count-tokens:rawPredict with the model in the body, as Anthropic\'s Vertex SDK calls it', async () => {
    const { access_token: token } = await (await exchange(assertion(goodClaims()))).json() as { access_token: string };
    const path = `${sim.url}/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict`;
    const call = (body: object) => fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const base = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'count these four words' }] };
    expect((await call(base)).status).toBe(400);
    expect((await call({ ...base, anthropic_version: 'vertex-2023-10-16', model: undefined })).status).toBe(400);
    const answer = await call({ ...base, anthropic_version: 'vertex-2023-10-16' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ input_tokens: 4 });
  });
});
