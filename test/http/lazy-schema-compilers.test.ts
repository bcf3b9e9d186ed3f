// Issue 16 (memory): Fastify's ajv validator and fast-json-stringify serializer are loaded only when a route
// declares a JSON schema. The gateway declares none, so a running gateway answering requests has neither
// loaded; a Fastify app given the same option still validates and serializes schemas as Fastify always did.
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySchemaController, schemaCompilersLoaded } from '../../src/http/lazy-schema-compilers.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('lazy-schemas');
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
/** Whether Node has loaded the module (CommonJS cache of this process). */
const loaded = (name: string): boolean => fastifyRequire.cache[fastifyRequire.resolve(name)] !== undefined;

describe('the running gateway', () => {
  let upstream: OpenAISimulator;
  let gateway: TestGateway;
  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
    gateway = await startTestGateway({
      channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['m'] }],
      models: [{ id: 'm', free: true }],
      users: [{ name: 'u', balance: 1 }],
      keys: [{ name: 'k', key: KEY, user: 'u' }],
    });
  });
  afterAll(async () => {
    await gateway?.dispose();
    await upstream?.close();
  });

  it('answers chat, bad input and the API description without loading ajv or fast-json-stringify', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY });
    const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.role).toBe('assistant');
    const bad = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"model": 1}',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json() as { error: { message: string } }).error.message).toBeTruthy();
    expect((await fetch(`${gateway.url}/api/openapi.json`)).status).toBe(200);

    expect(schemaCompilersLoaded()).toEqual({ validator: false, serializer: false });
    expect(loaded('@fastify/ajv-compiler')).toBe(false);
    expect(loaded('@fastify/fast-json-stringify-compiler')).toBe(false);
  });
});

describe('a route that declares a JSON schema', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = Fastify({ schemaController: lazySchemaController });
    app.post('/echo', {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    }, async (request) => ({ ...(request.body as object), secret: 'not in the response schema' }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => app?.close());

  it("is validated and serialized by Fastify's own compilers, loaded on first use", async () => {
    expect(schemaCompilersLoaded()).toEqual({ validator: true, serializer: true });
    const post = (body: string) => fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const bad = await post('{"n": "x"}');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('body/n must be integer');
    const good = await post('{"n": 7}');
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ n: 7 });
  });
});
