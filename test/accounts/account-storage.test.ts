// Sessions (idle and absolute expiry, rotation), one-time mail tokens and the sign-in throttle, on SQLite
// and PostgreSQL, with the clock passed in.
import { describe, expect, it } from 'vitest';
import { useTestDatabase, withTestDatabases } from '../db/test-databases.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { createSession, findSession, rotateSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/accounts/sessions.ts';
import { consumeEmailToken, issueEmailToken, TOKEN_TTL_MS } from '../../src/accounts/email-tokens.ts';
import { FAILURE_WINDOW_MS, recordFailure, throttleDelaySeconds } from '../../src/accounts/login-throttle.ts';

const client = { ip: '192.0.2.1', userAgent: 'test' };
const DAY = 86_400_000;

describe.each(withTestDatabases())('account storage on %s', (target) => {
  const database = useTestDatabase(target);
  const db = () => database().db;

  it('ends a session after 7 idle days, and after 30 days however active; stores only the hash', async () => {
    const user = await createUser(db(), 'sess');
    const t0 = 1_000_000_000_000;
    const idle = await createSession(db(), user.id, 'active', client, t0);
    expect(idle.row.token_hash).not.toContain(idle.token);
    expect(await findSession(db(), idle.token, t0 + SESSION_IDLE_MS - 1000)).toBeDefined();
    // That visit moved last_seen_at, so 7 more days are allowed from it, not from sign-in.
    expect(await findSession(db(), idle.token, t0 + 2 * SESSION_IDLE_MS - 2000)).toBeDefined();
    expect(await findSession(db(), idle.token, t0 + 3 * SESSION_IDLE_MS)).toBeUndefined();

    const busy = await createSession(db(), user.id, 'active', client, t0);
    for (let day = 5; day < 30; day += 5) expect(await findSession(db(), busy.token, t0 + day * DAY)).toBeDefined();
    expect(await findSession(db(), busy.token, t0 + SESSION_ABSOLUTE_MS)).toBeUndefined();
  });

  it('rotation gives a new token, keeps the absolute end, and kills the old token', async () => {
    const user = await createSession(db(), (await createUser(db(), 'rot')).id, 'active', client, Date.now());
    const rotated = await rotateSession(db(), user.row);
    expect(rotated.token).not.toBe(user.token);
    expect(rotated.row.expires_at).toBe(user.row.expires_at);
    expect(await findSession(db(), user.token)).toBeUndefined();
    expect(await findSession(db(), rotated.token)).toBeDefined();
  });

  it('mail tokens are single use, expire, and a newer one replaces the older', async () => {
    const user = await createUser(db(), 'tok');
    const now = Date.now();
    const first = await issueEmailToken(db(), user.id, 'reset_password', null, now);
    const second = await issueEmailToken(db(), user.id, 'reset_password', null, now);
    expect(await consumeEmailToken(db(), first, 'reset_password', now)).toBeUndefined();
    expect(await consumeEmailToken(db(), second, 'verify_email', now)).toBeUndefined();
    expect(await consumeEmailToken(db(), second, 'reset_password', now + TOKEN_TTL_MS.reset_password + 1)).toBeUndefined();
    expect(await consumeEmailToken(db(), second, 'reset_password', now)).toMatchObject({ user_id: user.id });
    expect(await consumeEmailToken(db(), second, 'reset_password', now)).toBeUndefined();
    // Two concurrent uses of one token: exactly one wins.
    const third = await issueEmailToken(db(), user.id, 'verify_email', null, now);
    const results = await Promise.all([consumeEmailToken(db(), third, 'verify_email', now), consumeEmailToken(db(), third, 'verify_email', now)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('throttles after 5 failures in 15 minutes, until the oldest is 15 minutes old', async () => {
    const t0 = 2_000_000_000_000;
    for (let i = 0; i < 4; i++) await recordFailure(db(), ['account:x@example.com'], t0 + i * 60_000);
    expect(await throttleDelaySeconds(db(), ['account:x@example.com'], t0 + 5 * 60_000)).toBe(0);
    await recordFailure(db(), ['account:x@example.com'], t0 + 5 * 60_000);
    expect(await throttleDelaySeconds(db(), ['account:x@example.com'], t0 + 6 * 60_000)).toBe((FAILURE_WINDOW_MS - 6 * 60_000) / 1000);
    expect(await throttleDelaySeconds(db(), ['account:x@example.com'], t0 + FAILURE_WINDOW_MS + 1)).toBe(0);
  });
});
