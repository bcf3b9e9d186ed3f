// The client address for IP allowlists: the socket's, or X-Forwarded-For's only behind a trusted proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('proxieduser');
const config = {
  channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'x', models: ['m'] }],
  models: [{ id: 'm', free: true }],
  users: [{ name: 'pat' }],
  keys: [{ name: 'office', key: KEY, user: 'pat', ip_allowlist: ['10.0.0.0/8', '2001:db8::/32'] }],
};
let direct: TestGateway;
let proxied: TestGateway;

beforeAll(async () => {
  direct = await startTestGateway(config);
  proxied = await startTestGateway(config, { env: { TRUST_PROXY: '127.0.0.1' } });
});
afterAll(async () => {
  await direct?.dispose();
  await proxied?.dispose();
});

const models = (gateway: TestGateway, forwardedFor?: string) => fetch(`${gateway.url}/v1/models`, {
  headers: { authorization: `Bearer ${KEY}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
}).then((response) => response.status);

describe('IP allowlists and proxies', () => {
  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    expect(await models(direct, '10.1.2.3')).toBe(403);
  });

  it('believes X-Forwarded-For from a trusted proxy, IPv4 and IPv6', async () => {
    expect(await models(proxied, '10.1.2.3')).toBe(200);
    expect(await models(proxied, '2001:db8::7')).toBe(200);
    expect(await models(proxied, '192.168.1.1')).toBe(403);
    expect(await models(proxied)).toBe(403); // the proxy itself, 127.0.0.1, is not on the list
  });
});
