// The soak benchmark's gateway: the real startGateway with SQLite, a healthy OpenAI upstream and a failing
// one (serve-faulty-upstream.ts), and four models whose mix the soak client sends:
//   soak-chat       the healthy upstream only;
//   soak-failover   the failing upstream first (priority 1), then the healthy one (a continuation
//                   channel accepts a prefill, so streams cut midway are mended);
//   soak-broken     the failing upstream only: the client gets an error, nothing is charged.
// Prints `READY <url> <sqlite file>` when ready; SIGTERM stops it cleanly (usage flushed).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readEnv } from '../src/config/env.ts';
import { startGateway } from '../src/start-gateway.ts';
import { BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';

const [goodUrl, faultyUrl] = process.argv.slice(2);
if (!goodUrl || !faultyUrl) throw new Error('usage: serve-soak-gateway.ts GOOD_UPSTREAM_URL FAULTY_UPSTREAM_URL');
const dir = mkdtempSync(join(tmpdir(), 'gateway-soak-'));
const configFile = join(dir, 'gateway.yaml');
const sqliteFile = join(dir, 'gateway.db');
const price = { owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 };
writeFileSync(configFile, stringify({
  channels: [
    { name: 'healthy', type: 'openai', base_url: goodUrl, api_key: BENCH_UPSTREAM_KEY, models: ['soak-chat'] },
    { name: 'failing', type: 'openai', base_url: faultyUrl, api_key: BENCH_UPSTREAM_KEY, models: ['soak-failover', 'soak-broken'], priority: 1 },
    { name: 'rescue', type: 'openai', base_url: goodUrl, api_key: BENCH_UPSTREAM_KEY, models: ['soak-failover'], supports_prefill: true },
  ],
  models: ['soak-chat', 'soak-failover', 'soak-broken'].map((id) => ({ id, ...price })),
  users: [{ name: 'soak', balance: 1_000_000 }],
  keys: [{ name: 'soak', key: BENCH_KEY, user: 'soak' }],
}));
const gateway = await startGateway({
  env: readEnv({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${sqliteFile}`, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' }),
  configFile,
});
process.stdout.write(`READY ${gateway.url} ${sqliteFile}\n`);
process.once('SIGTERM', () => void gateway.stop().then(() => process.exit(0)));
