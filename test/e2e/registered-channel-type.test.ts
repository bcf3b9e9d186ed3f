// A channel type registered at run time is a channel type like the built-in ones (issue 27, item 2): its
// provider's settings block is what the config file, the admin API (and its OpenAPI document) and the
// channel-types list accept and describe, with the same checks, and a setting the block marks secret is
// encrypted at rest, never shown back and kept when an edit leaves it out. The toy type
// (test/formats/toy-chat) is registered in one line; nothing in src/ names it.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerProvider } from '../../src/providers/registry.ts';
import { parseConfigText } from '../../src/config/load-config-file.ts';
import { toyChatFormat, toyProvider } from '../formats/toy-chat/index.ts';
import { startToySimulator, type ToySimulator } from '../simulators/toy-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

registerProvider(toyProvider, toyChatFormat);

const ADMIN = testKey('toyadmin');
const USER = testKey('toyuser');
const SECRET = 'toy-signing-secret-1';
let upstream: ToySimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startToySimulator({ apiKey: 'toy-upstream-key', tenant: 'harbour', secret: SECRET });
  gateway = await startTestGateway({
    models: [{ id: 'm-toy', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', role: 'admin', balance: 0 }, { name: 'tess', balance: 5 }],
    keys: [{ name: 'root', key: ADMIN, user: 'root' }, { name: 'tess', key: USER, user: 'tess' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method, headers: { authorization: `Bearer ${ADMIN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

const ask = (model = 'm-toy') => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: 'hello toy' }] });
const storedSettings = async (id: number) => (await gateway.database.db.selectFrom('channels').select('settings_json').where('id', '=', id).executeTakeFirstOrThrow()).settings_json;
const toyChannel = { name: 'toy', type: 'toy', base_url: '', api_key: 'toy-upstream-key', models: ['m-toy'], model_mapping: { 'm-toy': 'toy-1' } };

describe('a channel type registered at run time', () => {
  it('is listed with the JSON Schema of its settings, the secret marked, and its credential described', async () => {
    const { body } = await admin('GET', '/api/admin/channel-types');
    const toy = body.data.find((type: { type: string }) => type.type === 'toy');
    expect(toy).toMatchObject({
      chat_formats: ['toy-chat'],
      needs_base_url: 'a toy channel needs base_url: where its upstream listens',
      credential: { label: 'Toy key' },
      settings: { type: 'object', required: ['toy'], properties: { toy: { title: 'Toy upstream', required: ['tenant'], properties: { tenant: { title: 'Toy tenant', examples: ['harbour'] }, signing_secret: { secret: true } } } } },
    });
    const openapi = (await admin('GET', '/api/openapi.json')).body;
    const created = openapi.paths['/api/admin/channels'].post.requestBody.content['application/json'].schema;
    expect(created.properties.type.enum).toContain('toy');
    expect(created.properties.toy.properties.tenant.title).toBe('Toy tenant');
  });

  it('refuses what its block refuses, naming the field', async () => {
    expect((await admin('POST', '/api/admin/channels', { ...toyChannel, base_url: upstream.url })).body.error).toMatchObject({ param: 'toy' });
    expect((await admin('POST', '/api/admin/channels', { ...toyChannel, base_url: upstream.url, toy: { tenant: 'Not Valid' } })).body.error).toMatchObject({ param: 'toy.tenant' });
    expect((await admin('POST', '/api/admin/channels', { ...toyChannel, toy: { tenant: 'harbour' } })).body.error).toMatchObject({ param: 'base_url' });
    expect((await admin('POST', '/api/admin/channels', { ...toyChannel, type: 'openai', base_url: upstream.url, toy: { tenant: 'harbour' } })).body.error.message).toContain('toy settings belong to a toy channel');
    expect(() => parseConfigText('gw.yaml', JSON.stringify({ channels: [{ ...toyChannel, base_url: upstream.url, toy: { tenant: 'harbour', extra: 1 } }] }))).toThrow(/channels\[0\]\.toy/);
  });

  it('serves calls once created, keeps its secret sealed and unshown, and keeps it through an edit that leaves it out', async () => {
    const created = await admin('POST', '/api/admin/channels', { ...toyChannel, base_url: upstream.url, toy: { tenant: 'harbour', signing_secret: SECRET } });
    expect(created.status).toBe(201);
    expect(created.body.toy).toEqual({ tenant: 'harbour' });
    expect(created.text).not.toContain(SECRET);
    expect(await storedSettings(created.body.id)).not.toContain(SECRET);
    expect((await ask()).choices[0]!.message.content).toBe('Hello from the Toy simulator: you said "hello toy"');
    expect(upstream.requests.at(-1)!.headers['x-toy-secret']).toBe(SECRET);

    const edited = await admin('PATCH', `/api/admin/channels/${created.body.id}`, { toy: { tenant: 'harbour' }, weight: 3 });
    expect(edited.status).toBe(200);
    expect(edited.text).not.toContain(SECRET);
    expect((await ask()).choices[0]!.message.content).toContain('hello toy');
    expect(upstream.requests.at(-1)!.headers['x-toy-secret']).toBe(SECRET);
    const audit = await gateway.database.db.selectFrom('audit_log').select(['before_json', 'after_json']).execute();
    expect(JSON.stringify(audit)).not.toContain(SECRET);

    // A new secret replaces it; the upstream then refuses the channel's calls (it knows the old one only).
    expect((await admin('PATCH', `/api/admin/channels/${created.body.id}`, { toy: { tenant: 'harbour', signing_secret: 'another-secret-2' } })).status).toBe(200);
    await expect(ask()).rejects.toMatchObject({ status: 502 });
    expect(upstream.requests.at(-1)!.headers['x-toy-secret']).toBe('another-secret-2');
  });
});
