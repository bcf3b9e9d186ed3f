// Where a non-streamed chat call allocates: the gateway (or AB_SCRIPT, e.g. bench/serve-bare-relay.ts) with
// npm start's flags and bench/allocation-sampler.ts preloaded, 2,000 warm-up calls, then N calls (default
// 4,000, 8 at a time) under V8's sampling heap profiler with freed objects included. Prints the bytes
// allocated per call in all and by function (self), the top 40. `node bench/allocation-sites.ts [N]`;
// ALLOCATION_SURVIVORS=1 counts only objects that survived the young generation (promoted).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { sendChatCalls } from './chat-calls.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] }

const CALLS = Number(process.argv[2] ?? 4000);
const SCRIPT = process.env.AB_SCRIPT ?? 'bench/serve-gateway.ts';
const root = join(import.meta.dirname, '..');
const key = SCRIPT.includes('bare') ? BENCH_UPSTREAM_KEY : BENCH_KEY;
const profileFile = join(mkdtempSync(join(tmpdir(), 'allocation-sites-')), 'profile.json');

const send = (url: string, count: number) => sendChatCalls(url, key, count);

const upstream = await startServer([join(root, 'bench/serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
const flags = [...gatewayNodeFlags(), `--import=${join(root, 'bench/allocation-sampler.ts')}`];
const server = spawn(process.execPath, [...flags, join(root, SCRIPT), upstream.url], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ALLOCATION_PROFILE: profileFile, MAX_CONNECTIONS_PER_IP: '0' } });
const stderrLines = createInterface({ input: server.stderr! });
const said = (word: string) => new Promise<void>((resolve) => stderrLines.on('line', (line) => line === word && resolve()));
try {
  const url = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).on('line', (line) => line.startsWith('READY ') && resolve(line.slice(6).trim())));
  await send(url, 2000);
  const sampling = said('SAMPLING');
  server.kill('SIGUSR2');
  await sampling;
  await send(url, CALLS);
  const profiled = said('PROFILED');
  server.kill('SIGUSR2');
  await profiled;
} finally {
  server.kill('SIGTERM');
  stopServers([upstream]);
}

const bySite = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const site = `${functionName || '(anonymous)'} ${url.replace(`file://${root}/`, '').replace(/.*node_modules\//, '')}:${lineNumber + 1}`;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
};
walk((JSON.parse(readFileSync(profileFile, 'utf8')) as { head: ProfileNode }).head);
process.stdout.write(`${SCRIPT}: ${(total / CALLS / 1024).toFixed(1)} KB ${process.env.ALLOCATION_SURVIVORS === '1' ? 'promoted' : 'allocated'} per call (main thread, sampled)\n`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  process.stdout.write(`${(bytes / CALLS).toFixed(0).padStart(7)} B  ${site}\n`);
}
