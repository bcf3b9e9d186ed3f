// Attacker's review of the public pricing page's data (api-pricing-routes.ts) and the channel types
// (admin-catalog-routes.ts) over the real wire: what a stranger learns, whether the page being off can be
// told apart from a path that does not exist, and who may turn it on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const UPSTREAM_KEY = 'sk-pricing-upstream-secret-0123456789';
const ADMIN = { email: 'root-pricing@example.com', password: 'root pricing password' };
const USER = { email: 'user-pricing@example.com', password: 'user pricing password' };
const USER_KEY = testKey('pricinguser');

let gateway: TestGateway;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  gateway = await startTestGateway({
    groups: [{ name: 'default' }, { name: 'public-pro', ratio: 2 }, { name: 'vip-secret', ratio: 0.1, description: 'hand-picked customers' }],
    channels: [
      { name: 'internal-azure-east', type: 'openai', base_url: 'http://10.1.2.3:8080', api_key: UPSTREAM_KEY, models: ['gpt-4o'], groups: ['default', 'public-pro', 'vip-secret'], model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06-internal-deployment' } },
      { name: 'vip-channel', type: 'openai', base_url: 'http://10.9.9.9:8080', api_key: UPSTREAM_KEY, models: ['vip-only-model'], groups: ['vip-secret'] },
    ],
    models: [{ id: 'gpt-4o', input_per_mtok: 2.5, output_per_mtok: 10 }, { id: 'vip-only-model', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'user', email: USER.email, password: USER.password },
    ],
    keys: [{ name: 'user-key', key: USER_KEY, user: 'user' }],
  });
  admin = new ApiClient(gateway.url);
  user = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  expect((await user.post('/api/auth/login', USER)).status).toBe(200);
  expect((await admin.put('/api/admin/settings', { self_service_groups: ['default', 'public-pro'] })).status).toBe(200);
});

afterAll(async () => {
  await gateway?.dispose();
});

describe('the public pricing page', () => {
  it('while off, answers exactly as a path that does not exist', async () => {
    const off = await fetch(`${gateway.url}/api/pricing`);
    const missing = await fetch(`${gateway.url}/api/pricing-nothing-here`);
    expect(off.status).toBe(404);
    expect(missing.status).toBe(404);
    const offBody = await off.json() as { error: Record<string, unknown> };
    const missingBody = await missing.json() as { error: Record<string, unknown> };
    // The same envelope, kind and code; the message names the URL asked for, as for any unknown path.
    expect({ ...offBody.error, message: null }).toEqual({ ...missingBody.error, message: null });
    expect(offBody.error.message).toBe(String(missingBody.error.message).replace('/api/pricing-nothing-here', '/api/pricing'));
  });

  it('only an administrator turns it on, with the CSRF token', async () => {
    expect((await new ApiClient(gateway.url).put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(401);
    expect((await user.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(403);
    expect((await new ApiClient(gateway.url, USER_KEY).put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(403);
    admin.sendCsrf = false;
    try {
      expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(403);
    } finally {
      admin.sendCsrf = true;
    }
    expect((await fetch(`${gateway.url}/api/pricing`)).status).toBe(404);
  });

  it('on, shows only self-service groups and prices: never a reserved group, a channel, an upstream model id, an address or a key', async () => {
    expect((await admin.put('/api/admin/settings', { pricing_page: { enabled: true } })).status).toBe(200);
    const answer = await fetch(`${gateway.url}/api/pricing`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const body = JSON.parse(text) as { groups: { name: string; ratio: number; models: { id: string; prices: Record<string, number> }[] }[] };
    expect(body.groups.map((group) => group.name)).toEqual(['default', 'public-pro']);
    expect(body.groups.find((group) => group.name === 'public-pro')!.models.find((model) => model.id === 'gpt-4o')!.prices).toMatchObject({ input_per_mtok: 5, output_per_mtok: 20 });
    for (const secret of ['vip-secret', 'hand-picked', 'internal-azure-east', 'vip-channel', '2024-08-06-internal', '10.1.2.3', '10.9.9.9', UPSTREAM_KEY]) expect(text, secret).not.toContain(secret);
    // A model only a reserved group's channel serves is not listed for another group, nor priced. (The
    // default group reaches every model by design, docs/configuration.md: there it is listed, as its keys can call it.)
    expect(body.groups.find((group) => group.name === 'public-pro')!.models.map((model) => model.id)).toEqual(['gpt-4o']);
  });
});

describe('channel types', () => {
  it('are for administrators, and describe forms, never a stored credential', async () => {
    expect((await new ApiClient(gateway.url).get('/api/admin/channel-types')).status).toBe(401);
    expect((await user.get('/api/admin/channel-types')).status).toBe(403);
    expect((await new ApiClient(gateway.url, USER_KEY).get('/api/admin/channel-types')).status).toBe(403);
    const types = await admin.get('/api/admin/channel-types');
    expect(types.status).toBe(200);
    expect(types.text).not.toContain(UPSTREAM_KEY);
    expect(types.text).not.toContain('10.1.2.3');
  });
});
