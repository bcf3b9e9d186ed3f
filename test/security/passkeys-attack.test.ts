// Attacker's review of passkeys (api-passkey-routes.ts, src/accounts/passkeys.ts) over the real wire, with a
// software authenticator (test/helpers/soft-authenticator.ts) so answers can be replayed, moved between
// accounts and purposes, or come from a cloned authenticator: things a browser never lets a page do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';

let gateway: TestGateway;
let base: string;
let alice: ApiClient;
let bob: ApiClient;
const ALICE = { email: 'alice-pk@example.com', password: 'alice passkey password' };
const BOB = { email: 'bob-pk@example.net', password: 'bob passkey password 1' };
const ADMIN = { email: 'root-pk@example.com', password: 'root passkey password' };

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: 'alice', email: ALICE.email, password: ALICE.password },
      { name: 'bob', email: BOB.email, password: BOB.password },
    ],
  });
  // WebAuthn wants a host name: the public URL the gateway derives is http://localhost:<port>.
  base = gateway.url.replace('127.0.0.1', 'localhost');
  alice = new ApiClient(base);
  bob = new ApiClient(base);
  expect((await alice.post('/api/auth/login', ALICE)).status).toBe(200);
  expect((await bob.post('/api/auth/login', BOB)).status).toBe(200);
});

afterAll(async () => {
  await gateway?.dispose();
});

/** Registers a new software passkey on the client's account; answers it and its id on the server. */
async function registerPasskey(client: ApiClient, name = 'laptop'): Promise<{ authenticator: SoftAuthenticator; id: number }> {
  const authenticator = new SoftAuthenticator(base);
  const options = await client.post('/api/me/passkeys/options');
  expect(options.status).toBe(200);
  const created = await client.post('/api/me/passkeys', { name, response: authenticator.register(options.body as never) });
  expect(created.status).toBe(201);
  return { authenticator, id: created.body.id };
}

const signInOptions = async () => (await new ApiClient(base).post('/api/auth/passkey/options')).body as { challenge: string; rpId: string };
const signIn = (answer: unknown) => new ApiClient(base).post('/api/auth/passkey', { response: answer });

describe('signing in with a passkey', () => {
  it('signs in once per answer: the same signed answer replayed is refused', async () => {
    const { authenticator } = await registerPasskey(alice);
    const answer = authenticator.signIn(await signInOptions());
    const first = await signIn(answer);
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(ALICE.email);
    const replayed = await signIn(answer);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('passkey_not_accepted');
  });

  it('refuses an answer from a cloned authenticator (its counter went back)', async () => {
    const { authenticator } = await registerPasskey(alice, 'cloned');
    expect((await signIn(authenticator.signIn(await signInOptions()))).status).toBe(200);
    expect((await signIn(authenticator.signIn(await signInOptions()))).status).toBe(200);
    authenticator.counter = 0;
    const clone = await signIn(authenticator.signIn(await signInOptions()));
    expect(clone.status).toBe(401);
  });

  it('refuses a challenge the gateway did not seal, and a registration challenge used to sign in, with the same answer as an unknown passkey', async () => {
    const { authenticator } = await registerPasskey(alice, 'forged');
    const options = await signInOptions();
    const forged = await signIn(authenticator.signIn({ ...options, challenge: Buffer.from('{"p":"sign_in","u":null,"e":99999999999999,"r":"x"}').toString('base64url') }));
    const registration = (await alice.post('/api/me/passkeys/options')).body as { challenge: string };
    const wrongPurpose = await signIn(authenticator.signIn({ ...options, challenge: registration.challenge }));
    const unknown = await signIn(new SoftAuthenticator(base).signIn(options));
    for (const answer of [forged, wrongPurpose, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unknown.body);
    }
  });

  it('refuses a passkey sign-in (after its check) for an address whose domain must use an identity provider', async () => {
    const { authenticator } = await registerPasskey(bob);
    const admin = new ApiClient(base);
    expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
    expect((await admin.put('/api/admin/signin-domains', { domains: ['example.net'] })).status).toBe(200);
    try {
      const refused = await signIn(authenticator.signIn(await signInOptions()));
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('identity_provider_required');
      expect(refused.headers.get('set-cookie')).toBeNull();
    } finally {
      await admin.put('/api/admin/signin-domains', { domains: [] });
    }
  });
});

describe('registering a passkey', () => {
  it("refuses another account's registration challenge, and a sign-in challenge", async () => {
    const authenticator = new SoftAuthenticator(base);
    const aliceOptions = (await alice.post('/api/me/passkeys/options')).body;
    const stolen = await bob.post('/api/me/passkeys', { name: 'stolen', response: authenticator.register(aliceOptions as never) });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.code).toBe('passkey_not_registered');
    const signInChallenge = await signInOptions();
    const wrongPurpose = await bob.post('/api/me/passkeys', { name: 'wrong', response: authenticator.register({ challenge: signInChallenge.challenge, rp: { id: signInChallenge.rpId } }) });
    expect(wrongPurpose.status).toBe(400);
    expect((await bob.get('/api/me/passkeys')).body.data.map((p: any) => p.name)).not.toContain('stolen');
  });

  it('accepts a registration answer once, and never the same authenticator on a second account', async () => {
    const authenticator = new SoftAuthenticator(base);
    const answer = authenticator.register((await alice.post('/api/me/passkeys/options')).body as never);
    expect((await alice.post('/api/me/passkeys', { name: 'once', response: answer })).status).toBe(201);
    expect((await alice.post('/api/me/passkeys', { name: 'twice', response: answer })).status).toBe(400);
    const onBob = await bob.post('/api/me/passkeys', { name: 'taken', response: authenticator.register((await bob.post('/api/me/passkeys/options')).body as never) });
    expect(onBob.status).toBe(400);
    // The passkey still signs Alice in, never Bob.
    expect((await signIn(authenticator.signIn(await signInOptions()))).body.user.email).toBe(ALICE.email);
  });

  it('needs the CSRF token for every change, and changes nothing without it', async () => {
    const { id } = await registerPasskey(alice, 'csrf-target');
    const authenticator = new SoftAuthenticator(base);
    const options = (await alice.post('/api/me/passkeys/options')).body;
    alice.sendCsrf = false;
    try {
      expect((await alice.post('/api/me/passkeys/options')).status).toBe(403);
      expect((await alice.post('/api/me/passkeys', { name: 'planted', response: authenticator.register(options as never) })).status).toBe(403);
      expect((await alice.patch(`/api/me/passkeys/${id}`, { name: 'renamed' })).status).toBe(403);
      expect((await alice.delete(`/api/me/passkeys/${id}`)).status).toBe(403);
    } finally {
      alice.sendCsrf = true;
    }
    const names = (await alice.get('/api/me/passkeys')).body.data.map((p: any) => p.name);
    expect(names).toContain('csrf-target');
    expect(names).not.toContain('planted');
    expect(names).not.toContain('renamed');
  });
});

describe("another account's passkeys", () => {
  it('are a 404 exactly like one that does not exist, and are left as they were', async () => {
    const { id, authenticator } = await registerPasskey(alice, 'alice-own');
    const renamed = await bob.patch(`/api/me/passkeys/${id}`, { name: 'mine now' });
    const removed = await bob.delete(`/api/me/passkeys/${id}`);
    const never = await bob.patch('/api/me/passkeys/987654', { name: 'x' });
    const neverRemoved = await bob.delete('/api/me/passkeys/987654');
    expect(renamed.status).toBe(404);
    expect(removed.status).toBe(404);
    expect(renamed.body).toEqual(never.body);
    expect(removed.body).toEqual(neverRemoved.body);
    expect((await bob.get('/api/me/passkeys')).body.data.map((p: any) => p.id)).not.toContain(id);
    expect((await alice.get('/api/me/passkeys')).body.data.find((p: any) => p.id === id).name).toBe('alice-own');
    expect((await signIn(authenticator.signIn(await signInOptions()))).status).toBe(200);
  });

  it('cannot be managed with an API key: passkeys are for the session only', async () => {
    const admin = new ApiClient(base);
    await admin.post('/api/auth/login', ADMIN);
    const key = await alice.post('/api/keys', { name: 'pk-test' });
    expect(key.status).toBe(201);
    const withKey = new ApiClient(base, key.body.key);
    expect((await withKey.get('/api/me/passkeys')).status).toBe(401);
    expect((await withKey.post('/api/me/passkeys/options')).status).toBe(401);
  });
});

describe('a session taken over', () => {
  it('cannot add a passkey long after its sign-in: a stolen cookie does not become a credential that skips the password and the code', async () => {
    const thief = new ApiClient(base);
    expect((await thief.post('/api/auth/login', BOB)).status).toBe(200);
    const authenticator = new SoftAuthenticator(base);
    const options = (await thief.post('/api/me/passkeys/options')).body;
    // The session is 16 minutes old (as a cookie stolen from a browser left signed in would be).
    const current = (await thief.get('/api/me/sessions')).body.data.find((session: { current: boolean }) => session.current);
    await gateway.database.db.updateTable('sessions').set({ created_at: Date.now() - 16 * 60_000 }).where('id', '=', current.id).execute();
    const before = (await thief.get('/api/me/passkeys')).body.data.length;
    const late = await thief.post('/api/me/passkeys/options');
    expect(late.status).toBe(403);
    expect(late.body.error.code).toBe('recent_sign_in_required');
    // Options fetched in time do not help either.
    const planted = await thief.post('/api/me/passkeys', { name: 'planted', response: authenticator.register(options as never) });
    expect(planted.status).toBe(403);
    expect((await thief.get('/api/me/passkeys')).body.data.length).toBe(before);
    expect((await signIn(authenticator.signIn(await signInOptions()))).status).toBe(401);
    // Signing in again opens the window again.
    const again = new ApiClient(base);
    expect((await again.post('/api/auth/login', BOB)).status).toBe(200);
    expect((await again.post('/api/me/passkeys/options')).status).toBe(200);
  });
});

describe('huge bodies from strangers', () => {
  it('refuses a passkey answer of megabytes before parsing it, naming the route\'s own limit', async () => {
    const huge = { response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'x', padding: 'a'.repeat(8 * 1024 * 1024) } } };
    const answer = await new ApiClient(base).post('/api/auth/passkey', huge);
    expect(answer.status).toBe(413);
    expect(answer.body.error.message).toContain(String(128 * 1024));
    // An ordinary answer still goes through to the verifier.
    expect((await new ApiClient(base).post('/api/auth/passkey', { response: new SoftAuthenticator(base).signIn(await signInOptions()) })).status).toBe(401);
  });
});
