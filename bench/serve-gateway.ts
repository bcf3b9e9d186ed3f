// The gateway under benchmark: the real startGateway with SQLite, one channel to the given upstream and
// one key, with key checks, routing and usage capture all on. Prints its URL when ready.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnv } from '../src/config/env.ts';
import { startGateway } from '../src/start-gateway.ts';

import { BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';

const upstreamUrl = process.argv[2];
/** Optional: an Anthropic simulator for the translated streaming case (model claude-bench). */
const anthropicUrl = process.argv[3];
if (!upstreamUrl) throw new Error('usage: serve-gateway.ts OPENAI_UPSTREAM_URL [ANTHROPIC_UPSTREAM_URL]');
const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const configFile = join(dir, 'gateway.yaml');
// JSON is YAML: the gateway reads it with its own parser, and this script does not load `yaml` into the
// process the benchmark measures (`npm start` has only the gateway's own copy, which it lets go).
writeFileSync(configFile, JSON.stringify({
  channels: [
    // BENCH_CHANNEL_HTTP2=1 (the streams-at-scale phase): HTTP/2 to the upstream, many streams per connection.
    { name: 'bench', type: 'openai', base_url: upstreamUrl, api_key: BENCH_UPSTREAM_KEY, models: ['gpt-4o-mini'], ...(process.env.BENCH_CHANNEL_HTTP2 === '1' ? { http2: true } : {}) },
    ...(anthropicUrl ? [{ name: 'bench-anthropic', type: 'anthropic', base_url: anthropicUrl, api_key: BENCH_UPSTREAM_KEY, models: ['claude-bench'] }] : []),
  ],
  models: [
    { id: 'gpt-4o-mini', owned_by: 'openai', input_per_mtok: 0.15, output_per_mtok: 0.6 },
    { id: 'claude-bench', owned_by: 'anthropic', input_per_mtok: 3, output_per_mtok: 15 },
  ],
  users: [{ name: 'bench', balance: 1000000 }],
  keys: [{ name: 'bench', key: BENCH_KEY, user: 'bench' }],
}));
const gateway = await startGateway({
  env: readEnv({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`, LOG_LEVEL: 'warn' }),
  configFile,
});
process.stdout.write(`READY ${gateway.url}\n`);
process.once('SIGTERM', () => void gateway.stop().then(() => process.exit(0)));
