// Providers that sign: a provider's authentication sees the whole request (method, URL, headers, body) and
// may be asynchronous, and it is applied in one place for every upstream call. Checked over a real socket:
// a server that accepts only requests whose HMAC signature over method, URL and body is right.
import { getFormat } from '../../src/formats/index.ts';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpstream } from '../../src/upstream/send-upstream.ts';
import { createUpstreamAgents, type UpstreamAgents } from '../../src/upstream/upstream-agent.ts';
import { bearerAuthentication, type ProviderDefinition, type UpstreamRequestToSign } from '../../src/providers/provider-definition.ts';
import type { RoutedChannel } from '../../src/routing/routing-table.ts';

const SECRET = 'signing-secret';
const sign = (method: string, url: string, body: string) => createHmac('sha256', SECRET).update(`${method}\n${url}\n${body}`).digest('hex');

let server: Server;
let origin: string;
let agents: UpstreamAgents;
const seen: { headers: Record<string, unknown>; valid: boolean }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = `${origin}${request.url}`;
      const valid = request.headers['x-signature'] === sign(request.method ?? '', url, body);
      seen.push({ headers: request.headers, valid });
      response.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ valid }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agents = createUpstreamAgents(4);
});

afterAll(async () => {
  await agents?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

function channelWith(provider: ProviderDefinition, apiKeys = ['key-1']): RoutedChannel {
  return {
    id: 1, name: 'signed', type: provider.type, provider, chatFormat: getFormat(provider.chatFormat), origin, basePath: '/proxy', apiKeys, models: new Set(['m']), modelMapping: {},
    groups: new Set(['default']), priority: 0, weight: 1, timeouts: {}, supportsPrefill: false,
  };
}

const send = (channel: RoutedChannel, body: string) => sendUpstream(agents, {
  channel, path: '/v1/things?x=1', headers: { 'content-type': 'application/json' }, body, signal: new AbortController().signal, headersTimeoutMs: 5000, idleTimeoutMs: 5000,
});

describe('provider authentication', () => {
  it('signs the whole request asynchronously: method, full URL, body, after the hop and default headers', async () => {
    const seenByAuth: UpstreamRequestToSign[] = [];
    const signing: ProviderDefinition = {
      type: 'signed', chatFormat: 'openai-chat', defaultBaseUrl: origin, path: () => '/v1/things',
      defaultHeaders: { 'x-api-version': '2024-01-01' },
      async authenticate(request, apiKey) {
        seenByAuth.push(request);
        await new Promise((resolve) => setTimeout(resolve, 5)); // a token fetch, say
        return { 'x-signature': sign(request.method, request.url, String(request.body)), 'x-key-id': apiKey };
      },
    };
    const response = await send(channelWith(signing), '{"hello":"world"}');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(await response.text())).toEqual({ valid: true });
    expect(seenByAuth[0]).toMatchObject({ method: 'POST', url: `${origin}/proxy/v1/things?x=1`, body: '{"hello":"world"}' });
    expect(seenByAuth[0]!.headers).toEqual({ 'x-api-version': '2024-01-01', 'content-type': 'application/json' });
    expect(seen.at(-1)!.headers).toMatchObject({ 'x-key-id': 'key-1', 'x-api-version': '2024-01-01', 'content-type': 'application/json' });
  });

  it('answers synchronously for a plain key, using the channel keys in turn', async () => {
    const plain: ProviderDefinition = { type: 'plain', chatFormat: 'openai-chat', defaultBaseUrl: origin, path: () => '/v1/things', authenticate: bearerAuthentication };
    const channel = channelWith(plain, ['key-a', 'key-b']);
    await (await send(channel, '{}')).text();
    await (await send(channel, '{}')).text();
    expect(seen.slice(-2).map((request) => request.headers.authorization)).toEqual(['Bearer key-a', 'Bearer key-b']);
  });

  it('refuses a request whose signature does not match the body that was sent', async () => {
    const wrong: ProviderDefinition = {
      type: 'wrong', chatFormat: 'openai-chat', defaultBaseUrl: origin, path: () => '/v1/things',
      authenticate: (request) => ({ 'x-signature': sign(request.method, request.url, 'another body') }),
    };
    const response = await send(channelWith(wrong), '{"hello":"world"}');
    expect(response.statusCode).toBe(401);
  });
});
