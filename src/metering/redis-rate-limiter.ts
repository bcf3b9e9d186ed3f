// Rate limits shared by several instances: one Redis hash {requests, tokens} per subject and minute,
// checked and counted in one Lua script, expiring after two minutes.
import type { LuaScript, RedisContext } from '../cluster/redis-connection.ts';
import { WINDOW_MS, windowStart, type RateLimiter } from './rate-limiter.ts';

// KEYS: one window hash per subject. ARGV: per subject, rpm then tpm (-1 for none).
// Returns 0 when admitted, else the 1-based index of the subject over a limit, negated for tpm.
const admitScript: LuaScript = {
  name: 'gatewayRateAdmit',
  source: `
for i, key in ipairs(KEYS) do
  local rpm = tonumber(ARGV[i * 2 - 1])
  local tpm = tonumber(ARGV[i * 2])
  if rpm >= 0 and tonumber(redis.call('HGET', key, 'requests') or '0') >= rpm then return i end
  if tpm >= 0 and tonumber(redis.call('HGET', key, 'tokens') or '0') >= tpm then return -i end
end
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'requests', 1)
  redis.call('PEXPIRE', key, ${2 * WINDOW_MS})
end
return 0`,
};

export function createRedisRateLimiter(context: RedisContext): RateLimiter {
  const hash = (id: string, now: number) => `${context.prefix}rate:${id}:${windowStart(now)}`;
  return {
    async admit(subjects, now) {
      const limited = subjects.filter((subject) => subject.rpm !== null || subject.tpm !== null);
      if (limited.length === 0) return { allowed: true };
      const outcome = Number(await context.run(admitScript, limited.map((subject) => hash(subject.id, now)), limited.flatMap((subject) => [subject.rpm ?? -1, subject.tpm ?? -1])));
      if (outcome === 0) return { allowed: true };
      const subject = limited[Math.abs(outcome) - 1]!;
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart(now) + WINDOW_MS - now) / 1000));
      return { allowed: false, limit: outcome > 0 ? 'rpm' : 'tpm', subject: subject.id, retryAfterSeconds };
    },
    async addTokens(subjects, tokens, now) {
      const pipeline = context.redis.pipeline();
      for (const subject of subjects) {
        if (subject.tpm === null) continue;
        pipeline.hincrby(hash(subject.id, now), 'tokens', tokens);
        pipeline.pexpire(hash(subject.id, now), 2 * WINDOW_MS);
      }
      await pipeline.exec();
    },
    async close() {},
  };
}
