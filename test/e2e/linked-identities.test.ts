// Linked identities (issue 34, sign-in leftovers): a person lists the identities at identity providers
// linked to their account and unlinks them, never the last way to sign in (nor the last passkey); another
// person's ids answer 404. A real OpenID Connect provider (oidc-provider) runs in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { RedirectBrowser } from '../helpers/redirect-browser.ts';
import { startOidcIdentityProvider, type TestIdentityProvider } from '../simulators/oidc-identity-provider.ts';

let gateway: TestGateway;
let idp: TestIdentityProvider;
let base: string;
const OLGA = { email: 'olga@example.com', password: 'olga password 123' };

/** Signs `person` in at the provider and answers an ApiClient holding the gateway session it ends in. */
async function signInWithProvider(person: { sub: string; email: string }): Promise<ApiClient> {
  idp.nextPerson = { ...person, email_verified: true };
  const browser = new RedirectBrowser();
  const { stoppedAt } = await browser.follow(`${base}/api/auth/sso/corp/start`, (url) => url.startsWith(`${base}/api/auth/sso/corp/callback`));
  expect((await browser.get(stoppedAt!)).status).toBe(303);
  const client = new ApiClient(base);
  client.cookie = `gw_session=${browser.cookies.get('gw_session')}`;
  expect((await client.get('/api/me')).status).toBe(200);
  return client;
}

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [
      { name: 'boss', email: 'boss@example.com', password: 'boss password 123', role: 'admin' },
      { name: 'olga', email: OLGA.email, password: OLGA.password },
    ],
  });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  idp = await startOidcIdentityProvider({ redirectUris: [`${base}/api/auth/sso/corp/callback`] });
  const admin = new ApiClient(base);
  await admin.post('/api/auth/login', { email: 'boss@example.com', password: 'boss password 123' });
  expect((await admin.post('/api/admin/identity-providers', { slug: 'corp', kind: 'oidc', name: 'Corp SSO', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret })).status).toBe(201);
});

afterAll(async () => {
  await gateway?.dispose();
  await idp?.close();
});

describe('linked identities', () => {
  it('lists them, refuses to unlink the last way to sign in, and unlinks one once another way exists', async () => {
    // Nina's account was created by the provider: no password, the identity is her only way in.
    const nina = await signInWithProvider({ sub: 'nina-1', email: 'nina@example.com' });
    const listed = (await nina.get('/api/me/identities')).body.data as { id: number; provider: string; email: string }[];
    expect(listed).toEqual([expect.objectContaining({ provider: 'Corp SSO', provider_slug: 'corp', email: 'nina@example.com', provider_enabled: true })]);
    const refused = await nina.delete(`/api/me/identities/${listed[0]!.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('last_sign_in_method');
    expect((await nina.get('/api/me/identities')).body.data).toHaveLength(1);

    // With a passkey besides, the identity may go; then the passkey is the last way and stays.
    const ninaId = (await nina.get('/api/me')).body.user.id as number;
    const passkey = await gateway.database.db.insertInto('passkeys').values({ user_id: ninaId, credential_id: 'cred-nina', public_key: 'pk', counter: 0, transports: null, name: 'laptop', created_at: Date.now(), last_used_at: null })
      .returning('id').executeTakeFirstOrThrow();
    expect((await nina.delete(`/api/me/identities/${listed[0]!.id}`)).status).toBe(200);
    expect((await nina.get('/api/me/identities')).body.data).toEqual([]);
    const lastPasskey = await nina.delete(`/api/me/passkeys/${passkey.id}`);
    expect(lastPasskey.status).toBe(409);
    expect(lastPasskey.body.error.code).toBe('last_sign_in_method');
  });

  it("answers 404 to another person's identity and leaves it linked; an account with a password unlinks freely", async () => {
    const viaProvider = await signInWithProvider({ sub: 'olga-at-corp', email: OLGA.email });
    const olgaIdentity = ((await viaProvider.get('/api/me/identities')).body.data as { id: number }[])[0]!.id;
    const mallory = await signInWithProvider({ sub: 'mallory-1', email: 'mallory@example.com' });
    expect((await mallory.delete(`/api/me/identities/${olgaIdentity}`)).status).toBe(404);
    const olga = new ApiClient(base);
    expect((await olga.post('/api/auth/login', OLGA)).status).toBe(200);
    expect((await olga.get('/api/me/identities')).body.data).toHaveLength(1);
    expect((await olga.delete(`/api/me/identities/${olgaIdentity}`)).status).toBe(200);
    expect((await olga.get('/api/me/identities')).body.data).toEqual([]);
  });
});
