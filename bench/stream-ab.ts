// Gateway CPU per streamed event, same-format and translated, of a base tree (a `git archive` of another
// commit, with node_modules linked) against this tree: both gateways run side by side on the same simulators
// and are measured alternately, so drift of a shared machine touches both alike.
// Usage: node bench/stream-ab.ts BASE_TREE [ROUNDS, default 4] [SECONDS per measurement, default 4]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = join(import.meta.dirname, '..');
const { startServer, stopServers } = await import(join(root, 'bench/bench-servers.ts'));
const { runStreamLoad } = await import(join(root, 'bench/load-tools.ts'));
const { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } = await import(join(root, 'bench/node-flags.ts'));
const { cpuMs } = await import(join(root, 'bench/proc-stats.ts'));
const { BENCH_KEY } = await import(join(root, 'bench/bench-constants.ts'));
const [baseTree = '', roundsText = '4', secondsText = '4'] = process.argv.slice(2);
if (!baseTree) throw new Error('usage: stream-ab.ts BASE_TREE [ROUNDS] [SECONDS]');
const rounds = Number(roundsText); const seconds = Number(secondsText);
const dir = mkdtempSync(join(tmpdir(), 'stream-ab-'));
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const longStream = (model: string) => JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] });
writeFileSync(join(dir, 'same.json'), longStream('gpt-4o-mini')); writeFileSync(join(dir, 'translated.json'), longStream('claude-bench'));
const servers: any[] = [];
try {
  const up = await startServer([join(root, 'bench/serve-upstream.ts')], SIMULATOR_NODE_FLAGS); servers.push(up);
  const an = await startServer([join(root, 'bench/serve-anthropic-upstream.ts')], SIMULATOR_NODE_FLAGS); servers.push(an);
  const gws: Record<string, any> = {};
  gws.base = await startServer([join(baseTree, 'bench/serve-gateway.ts'), up.url, an.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' }); servers.push(gws.base);
  gws.branch = await startServer([join(root, 'bench/serve-gateway.ts'), up.url, an.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' }); servers.push(gws.branch);
  await new Promise((r) => setTimeout(r, 2000));
  const perEvent = (gw: any, file: string) => { const url = `${gw.url}/v1/chat/completions`; const before = cpuMs(gw.pid); const load = runStreamLoad(url, BENCH_KEY, file, seconds, 16); return ((cpuMs(gw.pid) - before) * 1000) / load.events; };
  for (const name of ['base', 'branch']) { runStreamLoad(`${gws[name].url}/v1/chat/completions`, BENCH_KEY, join(dir, 'same.json'), 1, 16); runStreamLoad(`${gws[name].url}/v1/chat/completions`, BENCH_KEY, join(dir, 'translated.json'), 1, 16); }
  for (let i = 0; i < rounds; i++) {
    for (const name of (i % 2 ? ['branch', 'base'] : ['base', 'branch'])) {
      const same = perEvent(gws[name], join(dir, 'same.json')); const tr = perEvent(gws[name], join(dir, 'translated.json'));
      console.log(`round ${i + 1} ${name.padEnd(6)}: same ${same.toFixed(2)} µs, translated ${tr.toFixed(2)} µs per event = ${(tr / same).toFixed(2)}×`);
    }
  }
} finally { stopServers(servers); }
