// The gateway never loses its last active administrator, on PostgreSQL too (where two transactions run at
// once): two administrators demoting or disabling themselves at the same moment, many times over, always
// leave exactly one; the refusal is a 409 naming the field and the reason. Also the migration that makes
// redemption codes revocable, applied on PostgreSQL: a revoked code is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';
import { ApiClient } from '../helpers/api-client.ts';

const ADMINS = [
  { email: 'pg-admin-1@example.com', password: 'pg admin password 1' },
  { email: 'pg-admin-2@example.com', password: 'pg admin password 2' },
];
let postgres: TestPostgres;
let gateway: TestGateway;

beforeAll(async () => {
  postgres = await createTestPostgres();
  gateway = await startTestGateway({
    users: ADMINS.map((admin, i) => ({ name: `admin${i}`, email: admin.email, password: admin.password, role: 'admin' })).concat([{ name: 'payee', email: 'payee@example.com', password: 'payee password 12', role: 'user' }]),
  }, { env: { DATABASE_URL: postgres.url } });
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
  await postgres?.drop();
});

async function signIn(who: { email: string; password: string }): Promise<ApiClient> {
  const client = new ApiClient(gateway.url);
  expect((await client.post('/api/auth/login', who)).status).toBe(200);
  return client;
}

interface UserView { id: number; email: string; role: string; status: string }

describe('the last administrator, on PostgreSQL', () => {
  it('of two administrators losing the role at the same moment, one stays, every time', async () => {
    for (let round = 0; round < 6; round++) {
      const [first, second] = await Promise.all(ADMINS.map(signIn));
      const users = (await first!.get('/api/admin/users?limit=100')).body.data as UserView[];
      const ids = ADMINS.map((admin) => users.find((user) => user.email === admin.email)!.id);
      const change = round % 2 === 0 ? { role: 'user' } : { status: 'disabled' };
      const answers = await Promise.all([first!.patch(`/api/admin/users/${ids[0]}`, change), second!.patch(`/api/admin/users/${ids[1]}`, change)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      expect(refused.body.error).toMatchObject({ code: 'last_admin', param: round % 2 === 0 ? 'role' : 'status' });
      const survivor = answers[0]!.status === 409 ? first! : second!;
      const now = (await survivor.get('/api/admin/users?limit=100')).body.data as UserView[];
      expect(now.filter((user) => user.role === 'admin' && user.status === 'active')).toHaveLength(1);
      // Back to two administrators for the next round.
      const lost = ids[answers[0]!.status === 200 ? 0 : 1]!;
      expect((await survivor.patch(`/api/admin/users/${lost}`, { role: 'admin', status: 'active' })).status).toBe(200);
    }
  });

  it('revokes a code on PostgreSQL; the code is refused afterwards', async () => {
    const admin = await signIn(ADMINS[0]!);
    const made = await admin.post('/api/admin/redemption-codes', { count: 1, amount_usd: 3 });
    expect(made.status).toBe(201);
    const [code] = made.body.codes as string[];
    const [id] = made.body.ids as number[];
    expect((await admin.post(`/api/admin/redemption-codes/${id}/revoke`)).status).toBe(200);
    const payee = await signIn({ email: 'payee@example.com', password: 'payee password 12' });
    expect((await payee.post('/api/wallet/redeem', { code })).body.error.code).toBe('invalid_redemption_code');
    expect((await admin.get('/api/admin/redemption-codes?state=revoked')).body.data).toMatchObject([{ id, state: 'revoked' }]);
  });
});
