// Same-format stream time to first byte of a base tree (a `git archive` of another commit, node_modules
// linked) against this tree: both gateways side by side on one upstream simulator, open-loop runs at 50
// streams/s (bench/open-loop.ts --ttfb) alternating direct, base, branch. Prints p50 per round and medians.
// Usage: node bench/ttfb-ab.ts BASE_TREE [ROUNDS, default 5] [SECONDS per run, default 4]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = join(import.meta.dirname, '..');
const { startServer, stopServers } = await import(join(root, 'bench/bench-servers.ts'));
const { runOpenLoop } = await import(join(root, 'bench/load-tools.ts'));
const { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } = await import(join(root, 'bench/node-flags.ts'));
const { BENCH_KEY, BENCH_UPSTREAM_KEY } = await import(join(root, 'bench/bench-constants.ts'));
const [baseTree = '', roundsText = '5', secondsText = '4'] = process.argv.slice(2);
if (!baseTree) throw new Error('usage: ttfb-ab.ts BASE_TREE [ROUNDS] [SECONDS]');
const rounds = Number(roundsText); const seconds = Number(secondsText);
const file = join(mkdtempSync(join(tmpdir(), 'ttfb-ab-')), 'stream.json');
writeFileSync(file, JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are a helpful assistant that answers briefly and precisely.' }, { role: 'user', content: 'Summarise the benefits of connection pooling for an HTTP gateway in two sentences, please. '.repeat(3) }], temperature: 0.2, max_tokens: 64, stream: true }));
const servers: any[] = [];
try {
  const up = await startServer([join(root, 'bench/serve-upstream.ts')], SIMULATOR_NODE_FLAGS); servers.push(up);
  const base = await startServer([join(baseTree, 'bench/serve-gateway.ts'), up.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' }); servers.push(base);
  const mine = await startServer([join(root, 'bench/serve-gateway.ts'), up.url], gatewayNodeFlags(), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' }); servers.push(mine);
  await new Promise((r) => setTimeout(r, 2000));
  for (const g of [base, mine]) runOpenLoop(`${g.url}/v1/chat/completions`, BENCH_KEY, file, 50, 1, true);
  const res: Record<string, number[]> = { direct: [], base: [], branch: [] };
  for (let i = 0; i < rounds; i++) {
    res.direct!.push(runOpenLoop(`${up.url}/v1/chat/completions`, BENCH_UPSTREAM_KEY, file, 50, seconds, true).p50);
    res.base!.push(runOpenLoop(`${base.url}/v1/chat/completions`, BENCH_KEY, file, 50, seconds, true).p50);
    res.branch!.push(runOpenLoop(`${mine.url}/v1/chat/completions`, BENCH_KEY, file, 50, seconds, true).p50);
    console.log(`round ${i + 1}: TTFB p50 direct ${res.direct!.at(-1)!.toFixed(3)} base ${res.base!.at(-1)!.toFixed(3)} branch ${res.branch!.at(-1)!.toFixed(3)} ms`);
  }
  const med = (l: number[]) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)]!;
  console.log(`medians: direct ${med(res.direct!).toFixed(3)}, base +${(med(res.base!) - med(res.direct!)).toFixed(3)}, branch +${(med(res.branch!) - med(res.direct!)).toFixed(3)} ms`);
} finally { stopServers(servers); }
