// Organisations over the real wire, on SQLite and PostgreSQL (issue 34): invitations through a real SMTP
// server, every role against every action, another organisation's ids answering 404, organisation keys
// charging the shared wallet, member caps, removal revoking keys at once, ownership rules, the admin's group.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';
import { ApiClient } from '../helpers/api-client.ts';

const UPSTREAM_KEY = 'sk-upstream-organisations';
const PEOPLE = ['alice', 'bob', 'carol', 'dave', 'eve', 'mallory'] as const;
type Person = typeof PEOPLE[number] | 'root';

describe.each([{ engine: 'SQLite' }, { engine: 'PostgreSQL' }])('organisations on $engine', ({ engine }) => {
  let upstream: OpenAISimulator;
  let smtp: TestSmtp;
  let postgres: TestPostgres | undefined;
  let gateway: TestGateway;
  const as = {} as Record<Person, ApiClient>;
  const ids = {} as Record<Person, number>;
  let org: number;
  let other: number;
  const orgKeys: Record<string, { id: number; key: string }> = {};

  const ask = (apiKey: string, maxTokens?: number) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })
    .chat.completions.create({ model: 'priced', ...(maxTokens ? { max_tokens: maxTokens } : {}), messages: [{ role: 'user', content: 'hi' }] });

  async function inviteAndJoin(inviter: ApiClient, organisation: number, who: Person, role: string) {
    const since = smtp.mails.length;
    const invited = await inviter.post(`/api/orgs/${organisation}/invites`, { email: `${who}@example.com`, role });
    expect(invited.status).toBe(201);
    const mail = await smtp.waitFor(`${who}@example.com`, /Join/, since);
    const token = new URL(linkIn(mail, '/orgs/join?token=')).searchParams.get('token')!;
    const joined = await as[who].post('/api/orgs/join', { token });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ organisation_id: organisation, role });
    return token;
  }

  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
    smtp = await startTestSmtp();
    postgres = engine === 'PostgreSQL' ? await createTestPostgres() : undefined;
    gateway = await startTestGateway({
      channels: [{ name: 'sim', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['priced'], groups: ['default', 'premium'] }],
      models: [{ id: 'priced', input_per_mtok: 1, output_per_mtok: 1 }],
      groups: [{ name: 'default', ratio: 1 }, { name: 'premium', ratio: 2 }],
      users: [
        { name: 'root', email: 'root@example.com', password: 'root password 123', role: 'admin' },
        ...PEOPLE.map((name) => ({ name, email: `${name}@example.com`, password: `${name} password 123` })),
      ],
    }, { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50', ...(postgres ? { DATABASE_URL: postgres.url } : {}) } });
    for (const name of [...PEOPLE, 'root'] as Person[]) {
      as[name] = new ApiClient(gateway.url);
      expect((await as[name].post('/api/auth/login', { email: `${name}@example.com`, password: `${name} password 123` })).status).toBe(200);
      ids[name] = (await as[name].get('/api/me')).body.user.id;
    }
    org = (await as.alice.post('/api/orgs', { name: 'Acme' })).body.id;
    other = (await as.eve.post('/api/orgs', { name: 'Umbrella' })).body.id;
    await inviteAndJoin(as.alice, org, 'bob', 'admin');
    await inviteAndJoin(as.alice, org, 'carol', 'billing');
    await inviteAndJoin(as.alice, org, 'dave', 'member');
    // Money for the shared wallet: a redemption code redeemed by the billing member.
    const codes = await as.root.post('/api/admin/redemption-codes', { count: 1, amount_usd: 5 });
    expect((await as.carol.post(`/api/orgs/${org}/wallet/redeem`, { code: codes.body.codes[0] })).status).toBe(200);
    for (const who of ['alice', 'bob', 'carol', 'dave'] as const) {
      const created = await as[who].post(`/api/orgs/${org}/keys`, { name: `${who}-key` });
      expect(created.status).toBe(201);
      orgKeys[who] = { id: created.body.id, key: created.body.key };
    }
    const eveKey = await as.eve.post(`/api/orgs/${other}/keys`, { name: 'eve-key' });
    orgKeys.eve = { id: eveKey.body.id, key: eveKey.body.key };
  });

  afterAll(async () => {
    await gateway?.dispose();
    await postgres?.drop();
    await smtp?.close();
    await upstream?.close();
  });

  it('answers an invitation to an unknown address exactly as one to a known address, and a link works once, for its address only', async () => {
    const known = await as.alice.post(`/api/orgs/${org}/invites`, { email: 'mallory@example.com' });
    const unknown = await as.alice.post(`/api/orgs/${org}/invites`, { email: 'nobody@example.com' });
    expect(known.status).toBe(201);
    expect(unknown.status).toBe(201);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect({ ...unknown.body, id: 0, email: '', created_at: '', expires_at: '' }).toEqual({ ...known.body, id: 0, email: '', created_at: '', expires_at: '' });
    const mail = await smtp.waitFor('mallory@example.com', /Join Acme/);
    const token = new URL(linkIn(mail, '/orgs/join?token=')).searchParams.get('token')!;
    // Someone else holding the link cannot use it.
    expect((await as.dave.post('/api/orgs/join', { token })).body.error.code).toBe('invalid_invitation');
    // Revoked by an admin: the link stops.
    const pending = (await as.bob.get(`/api/orgs/${org}/invites`)).body.data as { id: number; email: string }[];
    const malloryInvite = pending.find((invite) => invite.email === 'mallory@example.com')!;
    expect((await as.bob.delete(`/api/orgs/${org}/invites/${malloryInvite.id}`)).status).toBe(200);
    expect((await as.mallory.post('/api/orgs/join', { token })).body.error.code).toBe('invalid_invitation');
    expect((await as.mallory.get(`/api/orgs/${org}`)).status).toBe(404);
    // A used link does not work twice.
    const again = await inviteAndJoin(as.alice, org, 'mallory', 'member');
    expect((await as.mallory.post('/api/orgs/join', { token: again })).status).toBe(400);
  });

  it('lets each role do what it may and answers 403 organisation_role otherwise', async () => {
    const expectations: [string, string, (who: Person) => unknown, Person[]][] = [
      ['GET', 'members', () => undefined, ['alice', 'bob', 'carol', 'dave']],
      ['GET', 'invites', () => undefined, ['alice', 'bob']],
      ['GET', 'wallet', () => undefined, ['alice', 'bob', 'carol']],
      ['GET', 'wallet/payments', () => undefined, ['alice', 'carol']],
      ['PATCH', '', () => ({ name: 'Acme' }), ['alice', 'bob']],
    ];
    for (const [method, path, body, allowed] of expectations) {
      for (const who of ['alice', 'bob', 'carol', 'dave'] as const) {
        const answer = await as[who].call(method, `/api/orgs/${org}${path ? `/${path}` : ''}`, body(who));
        const expected = allowed.includes(who) ? 200 : 403;
        expect({ who, method, path, status: answer.status }).toEqual({ who, method, path, status: expected });
        if (expected === 403) expect(answer.body.error.code).toBe('organisation_role');
      }
    }
    for (const who of ['carol', 'dave'] as const) {
      expect((await as[who].post(`/api/orgs/${org}/invites`, { email: 'x@example.com' })).status).toBe(403);
      expect((await as[who].patch(`/api/orgs/${org}/members/${ids.dave}`, { monthly_cap_usd: 1 })).status).toBe(403);
    }
    for (const who of ['bob', 'dave'] as const) expect((await as[who].post(`/api/orgs/${org}/wallet/redeem`, { code: 'rc-nothing' })).status).toBe(403);
    // An admin cannot make an owner; only owners transfer.
    expect((await as.bob.patch(`/api/orgs/${org}/members/${ids.dave}`, { role: 'owner' })).status).toBe(403);
    expect((await as.bob.post(`/api/orgs/${org}/transfer`, { user_id: ids.bob })).status).toBe(403);
    // The balance is shown only to roles that see the wallet.
    expect((await as.dave.get(`/api/orgs/${org}`)).body.balance_usd).toBeNull();
    expect((await as.carol.get(`/api/orgs/${org}`)).body.balance_usd).toBeGreaterThan(0);
  });

  it("shows a member only the keys they hold, and owners and admins every member's", async () => {
    const names = async (who: Person) => ((await as[who].get(`/api/orgs/${org}/keys`)).body.data as { name: string }[]).map((key) => key.name).sort();
    expect(await names('dave')).toEqual(['dave-key']);
    expect(await names('carol')).toEqual(['carol-key']);
    expect(await names('bob')).toEqual(expect.arrayContaining(['alice-key', 'bob-key', 'carol-key', 'dave-key']));
    expect((await as.dave.patch(`/api/orgs/${org}/keys/${orgKeys.carol!.id}`, { enabled: false })).status).toBe(404);
    expect((await as.dave.delete(`/api/orgs/${org}/keys/${orgKeys.alice!.id}`)).status).toBe(404);
    // Organisation keys are not personal keys, and cannot read the dashboard API.
    expect(((await as.dave.get('/api/keys')).body.data as unknown[])).toEqual([]);
    const withKey = new ApiClient(gateway.url, orgKeys.dave!.key);
    const refused = await withKey.get('/api/logs');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('organisation_key');
  });

  it("answers 404 to another organisation's ids: the organisation, its keys, logs, members and invitations", async () => {
    await ask(orgKeys.eve!.key, 5).catch(() => {});
    await ask(orgKeys.alice!.key, 5);
    await gateway.recorder.flush();
    const eveInvite = await as.eve.post(`/api/orgs/${other}/invites`, { email: 'someone@example.com' });
    const aliceLog = (await as.alice.get(`/api/orgs/${org}/logs`)).body.data[0].id as number;
    // Eve's call was refused (her organisation's wallet is empty) and logged all the same.
    const eveLog = (await as.eve.get(`/api/orgs/${other}/logs`)).body.data[0].id as number;
    const attempts: [Person, string, string, unknown?][] = [
      ['eve', 'GET', `/api/orgs/${org}`],
      ['eve', 'GET', `/api/orgs/${org}/members`],
      ['eve', 'GET', `/api/orgs/${org}/keys`],
      ['eve', 'GET', `/api/orgs/${org}/logs`],
      ['eve', 'GET', `/api/orgs/${org}/logs/${aliceLog}`],
      ['eve', 'GET', `/api/orgs/${org}/stats`],
      ['eve', 'GET', `/api/orgs/${org}/wallet`],
      ['eve', 'GET', `/api/orgs/${org}/invites`],
      ['eve', 'POST', `/api/orgs/${org}/invites`, { email: 'z@example.com' }],
      ['eve', 'PATCH', `/api/orgs/${org}/keys/${orgKeys.alice!.id}`, { enabled: false }],
      ['eve', 'DELETE', `/api/orgs/${org}/members/${ids.dave}`],
      ['eve', 'PATCH', `/api/orgs/${org}/members/${ids.dave}`, { role: 'admin' }],
      // The right organisation in the path, another organisation's ids after it.
      ['alice', 'PATCH', `/api/orgs/${org}/keys/${orgKeys.eve!.id}`, { enabled: false }],
      ['alice', 'DELETE', `/api/orgs/${org}/keys/${orgKeys.eve!.id}`],
      ['alice', 'DELETE', `/api/orgs/${org}/invites/${eveInvite.body.id}`],
      ['alice', 'DELETE', `/api/orgs/${org}/members/${ids.eve}`],
      ['alice', 'GET', `/api/orgs/${org}/logs/${eveLog}`],
      ['alice', 'GET', `/api/orgs/${other}/logs/${eveLog}`],
      ['alice', 'GET', `/api/orgs/${other}/members`],
      ['alice', 'GET', `/api/orgs/999999`],
    ];
    for (const [who, method, path, body] of attempts) {
      const answer = await as[who].call(method, path, body);
      expect({ who, method, path, status: answer.status }).toEqual({ who, method, path, status: 404 });
    }
    // Nothing changed: Eve's key and invitation stand, Alice's key works.
    expect((await as.eve.get(`/api/orgs/${other}/invites`)).body.data).toHaveLength(1);
    expect(((await as.eve.get(`/api/orgs/${other}/keys`)).body.data as { enabled: boolean }[])[0]!.enabled).toBe(true);
    await expect(ask(orgKeys.alice!.key, 5)).resolves.toBeTruthy();
  });

  it('charges organisation keys to the shared wallet, with logs and statistics per member', async () => {
    const before = (await as.carol.get(`/api/orgs/${org}/wallet`)).body.balance_usd as number;
    await ask(orgKeys.dave!.key, 5);
    await ask(orgKeys.carol!.key, 5);
    await gateway.recorder.flush();
    const after = (await as.carol.get(`/api/orgs/${org}/wallet`)).body.balance_usd as number;
    expect(after).toBeLessThan(before);
    // Personal wallets are untouched.
    expect((await as.dave.get('/api/wallet')).body.balance_usd ?? 0).toBe(0);
    const daveLogs = (await as.dave.get(`/api/orgs/${org}/logs`)).body.data as { id: number; key_id: number }[];
    expect(daveLogs.length).toBeGreaterThan(0);
    const detail = await as.dave.get(`/api/orgs/${org}/logs/${daveLogs[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: daveLogs[0]!.id, key_id: orgKeys.dave!.id, outcome: 'success' });
    expect(new Set(daveLogs.map((log) => log.key_id))).toEqual(new Set([orgKeys.dave!.id]));
    const all = (await as.bob.get(`/api/orgs/${org}/logs`)).body.data as { key_id: number }[];
    expect(new Set(all.map((log) => log.key_id))).toEqual(new Set([orgKeys.alice!.id, orgKeys.dave!.id, orgKeys.carol!.id]));
    expect((await as.bob.get(`/api/orgs/${org}/logs?member_id=${ids.carol}`)).body.data.every((log: { key_id: number }) => log.key_id === orgKeys.carol!.id)).toBe(true);
    const stats = (await as.alice.get(`/api/orgs/${org}/stats`)).body;
    expect(stats.scope).toBe('organisation');
    expect((stats.by_member as { member_user_id: number }[]).map((row) => row.member_user_id).sort()).toEqual([ids.alice, ids.carol, ids.dave].sort());
    const mine = (await as.dave.get(`/api/orgs/${org}/stats`)).body;
    expect(mine.scope).toBe('member');
    expect((mine.by_member as { member_user_id: number }[]).map((row) => row.member_user_id)).toEqual([ids.dave]);
    // A rotated key has a new secret, in that answer only; the old one stops at once.
    const old = orgKeys.carol!.key;
    const rotated = await as.carol.post(`/api/orgs/${org}/keys/${orgKeys.carol!.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: orgKeys.carol!.id, member_user_id: ids.carol });
    orgKeys.carol!.key = rotated.body.key;
    await expect(ask(old, 5)).rejects.toMatchObject({ status: 401 });
    await expect(ask(orgKeys.carol!.key, 5)).resolves.toBeTruthy();
  });

  it("enforces a member's monthly cap at reservation, and only on that member's keys", async () => {
    expect((await as.bob.patch(`/api/orgs/${org}/members/${ids.dave}`, { monthly_cap_usd: 0.001 })).status).toBe(200);
    // The default output bound (4,096 tokens at $1/Mtok) is more than the cap: refused before any upstream byte.
    const upstreamCalls = upstream.requests.length;
    const refused = await ask(orgKeys.dave!.key).catch((error: unknown) => error as { status: number; message: string });
    expect(refused).toMatchObject({ status: 429 });
    expect((refused as { message: string }).message).toMatch(/monthly spending cap in this organisation/);
    expect(upstream.requests.length).toBe(upstreamCalls);
    await expect(ask(orgKeys.dave!.key, 5)).resolves.toBeTruthy();
    await expect(ask(orgKeys.carol!.key)).resolves.toBeTruthy();
    expect((await as.bob.patch(`/api/orgs/${org}/members/${ids.dave}`, { monthly_cap_usd: null })).status).toBe(200);
    await expect(ask(orgKeys.dave!.key)).resolves.toBeTruthy();
  });

  it('keeps an owner: the last owner cannot leave or be demoted; ownership transfers', async () => {
    const leave = await as.alice.delete(`/api/orgs/${org}/members/${ids.alice}`);
    expect(leave.status).toBe(409);
    expect(leave.body.error.code).toBe('last_owner');
    expect((await as.alice.patch(`/api/orgs/${org}/members/${ids.alice}`, { role: 'admin' })).body.error.code).toBe('last_owner');
    expect((await as.alice.post(`/api/orgs/${org}/transfer`, { user_id: ids.bob })).status).toBe(200);
    const roles = Object.fromEntries(((await as.bob.get(`/api/orgs/${org}/members`)).body.data as { user_id: number; role: string }[]).map((member) => [member.user_id, member.role]));
    expect(roles[ids.bob]).toBe('owner');
    expect(roles[ids.alice]).toBe('admin');
    // Now Alice may leave; her organisation key stops with her membership.
    expect((await as.alice.delete(`/api/orgs/${org}/members/${ids.alice}`)).status).toBe(200);
    await expect(ask(orgKeys.alice!.key, 5)).rejects.toMatchObject({ status: 401 });
  });

  it("revokes a removed member's organisation keys at once", async () => {
    await expect(ask(orgKeys.dave!.key, 5)).resolves.toBeTruthy();
    const removed = await as.bob.delete(`/api/orgs/${org}/members/${ids.dave}`);
    expect(removed.body).toEqual({ removed: true, revoked_keys: 1 });
    await expect(ask(orgKeys.dave!.key, 5)).rejects.toMatchObject({ status: 401 });
    expect((await as.dave.get(`/api/orgs/${org}`)).status).toBe(404);
    expect(((await as.dave.get('/api/orgs')).body.data as unknown[])).toEqual([]);
  });

  it("lets the platform administrator set an organisation's channel group, and nobody else", async () => {
    expect((await as.bob.patch(`/api/admin/organisations/${org}`, { group: 'premium' })).status).toBe(403);
    expect((await as.root.patch(`/api/admin/organisations/999999`, { group: 'premium' })).status).toBe(404);
    expect((await as.root.patch(`/api/admin/organisations/${org}`, { group: 'nope' })).status).toBe(400);
    const changed = await as.root.patch(`/api/admin/organisations/${org}`, { group: 'premium' });
    expect(changed.status).toBe(200);
    expect(((await as.bob.get(`/api/orgs/${org}/keys`)).body.data as { group: string }[]).every((key) => key.group === 'premium')).toBe(true);
    expect((await as.bob.get(`/api/orgs/${org}`)).body.group).toBe('premium');
    const listed = ((await as.root.get('/api/admin/organisations')).body.data as { id: number; group: string }[]).find((row) => row.id === org);
    expect(listed?.group).toBe('premium');
    const created = await as.carol.post(`/api/orgs/${org}/keys`, { name: 'carol-premium' });
    expect(created.body.group).toBe('premium');
  });

  it('holds the 50-organisation limit when joining too, and the same link works once the user has left one', async () => {
    // Eve owns one organisation; 49 more make 50.
    for (let made = 1; made < 50; made += 1) expect((await as.eve.post('/api/orgs', { name: `Eve ${made}` })).status).toBe(201);
    expect((await as.eve.post('/api/orgs', { name: 'One too many' })).body.error.code).toBe('too_many_organisations');
    const since = smtp.mails.length;
    expect((await as.bob.post(`/api/orgs/${org}/invites`, { email: 'eve@example.com' })).status).toBe(201);
    const token = new URL(linkIn(await smtp.waitFor('eve@example.com', /Join Acme/, since), '/orgs/join?token=')).searchParams.get('token')!;
    const refused = await as.eve.post('/api/orgs/join', { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('too_many_organisations');
    expect((await as.eve.get(`/api/orgs/${org}`)).status).toBe(404);
    // Eve hands one she made to Mallory and leaves it; the same link then works.
    const mine = ((await as.eve.get('/api/orgs')).body.data as { id: number; name: string }[]).find((row) => row.name === 'Eve 1')!;
    expect((await as.eve.post(`/api/orgs/${mine.id}/invites`, { email: 'mallory@example.com' })).status).toBe(201);
    const handOver = new URL(linkIn(await smtp.waitFor('mallory@example.com', /Join Eve 1/, since), '/orgs/join?token=')).searchParams.get('token')!;
    expect((await as.mallory.post('/api/orgs/join', { token: handOver })).status).toBe(200);
    expect((await as.eve.post(`/api/orgs/${mine.id}/transfer`, { user_id: ids.mallory })).status).toBe(200);
    expect((await as.eve.delete(`/api/orgs/${mine.id}/members/${ids.eve}`)).status).toBe(200);
    expect((await as.eve.post('/api/orgs/join', { token })).status).toBe(200);
  }, 60_000);
});
