// The Lua scripts behind Redis accounting (src/metering/redis-accounting.ts, redis-wallet-sync.ts). Each runs
// atomically in Redis, so no other instance's command lands between its check and its change.
// Amounts go in as decimal strings built in JavaScript and are handed to HINCRBY untouched: Lua numbers print
// as "-0" or "1e+15", which HINCRBY refuses (`ERR value is not an integer`).
import type { LuaScript } from '../cluster/redis-connection.ts';

// Reservations are members "<instance>.<id>:<amount>" of a sorted set per wallet and per key, scored by
// when they expire: a reservation whose settle never came stops counting after RESERVATION_TTL_MS.
const SUM_LIVE = `
local function live(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local total = 0
  for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    total = total + tonumber(string.match(member, ':(%d+)$'))
  end
  return total
end`;

// KEYS: wallet, key, wallet reservations, key reservations. ARGV: estimate, quota (-1 for none), now,
// expires at, member. Returns 1 taken, 0 wallet short, -1 quota short, -2 wallet unknown, -3 key unknown.
export const reserveScript: LuaScript = {
  name: 'gatewayReserveExpiring',
  source: `${SUM_LIVE}
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if redis.call('EXISTS', KEYS[2]) == 0 then return -3 end
local estimate = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local wallet = tonumber(redis.call('HGET', KEYS[1], 'value'))
local walletReserved = live(KEYS[3], now)
if wallet - walletReserved <= 0 or wallet - walletReserved < estimate then return 0 end
local keyReserved = live(KEYS[4], now)
if quota >= 0 then
  local used = tonumber(redis.call('HGET', KEYS[2], 'value'))
  if used + keyReserved >= quota or used + keyReserved + estimate > quota then return -1 end
end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
redis.call('PEXPIREAT', KEYS[4], ARGV[4])
return 1`,
};

// KEYS: wallet, key, wallet reservations, key reservations, this instance's pending charges.
// ARGV: member, cost, minus cost, pending record ("<userId> <keyId> <cost>").
// Releases the reservation and moves the counters; a charge is also noted as pending (in Redis, not yet in
// the database) until this instance's metering batch holding it is written, so a reconciliation can tell.
export const settleScript: LuaScript = {
  name: 'gatewaySettle',
  source: `
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if ARGV[2] ~= '0' then
  if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'value', ARGV[3]) end
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HINCRBY', KEYS[2], 'value', ARGV[2]) end
  redis.call('HSET', KEYS[5], ARGV[1], ARGV[4])
end
return 1`,
};

// KEYS: wallet reservations, key reservations. ARGV: member. A reservation whose settle failed, let go.
export const releaseScript: LuaScript = {
  name: 'gatewayRelease',
  source: `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`,
};

// KEYS: this instance's hash. ARGV: prefix, then the wallet and key fields ("w:<id>", "k:<id>") a database
// write is about to move. Bumps each field's epoch and marks it busy, so a reconciliation that read the
// database around this write knows to read again.
export const beginWriteScript: LuaScript = {
  name: 'gatewayBeginWrite',
  source: `
for i = 2, #ARGV do
  redis.call('INCR', ARGV[1] .. 'sync:' .. ARGV[i])
  redis.call('PEXPIRE', ARGV[1] .. 'sync:' .. ARGV[i], 86400000)
  redis.call('HINCRBY', KEYS[1], 'f:' .. ARGV[i], 1)
end
return 1`,
};

// KEYS: this instance's hash, its pending charges, then wallet hashes to credit. ARGV: number of busy
// fields N, the N fields, number of pending members M, the M members, then one amount per wallet hash.
// The write is done (or failed): clears the busy marks, forgets the pending charges now in the database,
// and credits wallets (a grant) that Redis holds; a wallet Redis does not hold is seeded later from the
// database, grant included.
export const endWriteScript: LuaScript = {
  name: 'gatewayEndWrite',
  source: `
local n = tonumber(ARGV[1])
for i = 2, n + 1 do
  if redis.call('HINCRBY', KEYS[1], 'f:' .. ARGV[i], -1) <= 0 then redis.call('HDEL', KEYS[1], 'f:' .. ARGV[i]) end
end
local m = tonumber(ARGV[n + 2])
for i = n + 3, n + 2 + m do redis.call('HDEL', KEYS[2], ARGV[i]) end
for i = 3, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('HINCRBY', KEYS[i], 'value', ARGV[n + m + i]) end
end
return 1`,
};

// Instances whose heartbeat key still exists; shared by the reconciliation scripts.
const LIVE_INSTANCES = `
local function liveInstances(prefix)
  local live = {}
  for _, id in ipairs(redis.call('SMEMBERS', prefix .. 'instances')) do
    if redis.call('EXISTS', prefix .. 'inst-alive:' .. id) == 1 then live[#live + 1] = id end
  end
  return live
end
local function busy(prefix, live, field)
  for _, id in ipairs(live) do
    if tonumber(redis.call('HGET', prefix .. 'inst:' .. id, 'f:' .. field) or '0') > 0 then return true end
  end
  return false
end`;

// ARGV: prefix, field. Returns the field's epoch, or -1 while a live instance is writing it to the database.
export const probeScript: LuaScript = {
  name: 'gatewayReconcileProbe',
  source: `${LIVE_INSTANCES}
local live = liveInstances(ARGV[1])
if busy(ARGV[1], live, ARGV[2]) then return -1 end
return tonumber(redis.call('GET', ARGV[1] .. 'sync:' .. ARGV[2]) or '0')`,
};

// KEYS: the counter hash, its reservations. ARGV: prefix, field, epoch seen before the database read, the
// database value, sign (-1 wallet: pending charges lower it; 1 key: they raise its spend), only-if-absent.
// Sets the counter to the database value moved by the charges live instances hold in Redis but have not
// written yet, unless a database write started since the probe (returns false: read again). Reservations of
// instances that are gone are dropped. Returns the value as a string.
export const applyScript: LuaScript = {
  name: 'gatewayReconcileApply',
  source: `${LIVE_INSTANCES}
local prefix, field = ARGV[1], ARGV[2]
if ARGV[6] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HGET', KEYS[1], 'value') end
local live = liveInstances(prefix)
if busy(prefix, live, field) then return false end
if tonumber(redis.call('GET', prefix .. 'sync:' .. field) or '0') ~= tonumber(ARGV[3]) then return false end
local kind, id = string.match(field, '^(%a):(%d+)$')
local pending = 0
local alive = {}
for _, instance in ipairs(live) do
  alive[instance] = true
  local records = redis.call('HVALS', prefix .. 'inst-pending:' .. instance)
  for _, record in ipairs(records) do
    local user, key, cost = string.match(record, '^(%d+) (%d+) (%d+)$')
    if (kind == 'w' and user == id) or (kind == 'k' and key == id) then pending = pending + tonumber(cost) end
  end
end
local value = tonumber(ARGV[4]) + tonumber(ARGV[5]) * pending
if value == 0 then value = 0 end
local text = string.format('%.0f', value)
redis.call('HSET', KEYS[1], 'value', text)
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local owner = string.match(member, '^([^.]+)%.')
  if owner and not alive[owner] then redis.call('ZREM', KEYS[2], member) end
end
return text`,
};
