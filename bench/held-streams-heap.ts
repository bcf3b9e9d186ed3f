// Heap snapshots of the gateway (bench/serve-gateway.ts with npm start's flags) before and with N idle open
// streams (bench/serve-held-stream-upstream.ts holds each after its first event), for bench/heap-diff.ts.
// A warm-up of 200 streams opened and finished first, so lazily loaded code and pools are in both.
// Usage: node bench/held-streams-heap.ts [N, default 1000] [OUT_DIR] → two .heapsnapshot files in OUT_DIR.
// HELD_H2C=1: the upstream speaks h2c and the gateway's channel has `http2: true`.
import { spawn } from 'node:child_process';
import { heldStreamClient } from './held-streams-client.ts';
import { createInterface } from 'node:readline';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = join(import.meta.dirname, '..');
const N = Number(process.argv[2] ?? 1000);
const h2c = process.env.HELD_H2C === '1';
const { askHeldUpstream } = await import(join(root, 'bench/held-upstream-control.ts'));
const out = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'held-heap-'));
const { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } = await import(join(root, 'bench/node-flags.ts'));
function start(args: string[], flags: string[], cwd: string, env = process.env) {
  const child = spawn(process.execPath, [...flags, ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd, env });
  return new Promise<{ url: string; child: typeof child }>((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve({ url: l.slice(6).trim(), child })));
}
const held = await start([join(root, 'bench/serve-held-stream-upstream.ts'), ...(h2c ? ['--h2c'] : [])], SIMULATOR_NODE_FLAGS, out);
const gw = await start([join(root, 'bench/serve-gateway.ts'), held.url], [...gatewayNodeFlags(), '--heapsnapshot-signal=SIGUSR2'], out, { ...process.env, MAX_CONNECTIONS_PER_IP: '0', BENCH_CHANNEL_HTTP2: h2c ? '1' : '0' });
const { openMany } = heldStreamClient(gw.url);
const snaps = () => readdirSync(out).filter((f) => f.endsWith('.heapsnapshot'));
async function snapshot() {
  const before = snaps().length;
  gw.child.kill('SIGUSR2');
  for (;;) { await new Promise((r) => setTimeout(r, 500)); const list = snaps(); if (list.length > before) { const f = list.sort().at(-1)!; const a = statSync(join(out, f)).size; await new Promise((r) => setTimeout(r, 1000)); if (statSync(join(out, f)).size === a) return; } }
}
// warm-up: open and finish some streams, so lazily loaded code and pools exist in both snapshots
let warm = await openMany(200);
await askHeldUpstream(held.url, 'POST', '/release', h2c);
await Promise.all(warm.map((w) => w.ended));
await new Promise((r) => setTimeout(r, 1000));
await snapshot();
const list = await openMany(N);
await new Promise((r) => setTimeout(r, 1000));
await snapshot();
await askHeldUpstream(held.url, 'POST', '/release', h2c);
await Promise.all(list.map((w) => w.ended));
gw.child.kill('SIGTERM'); held.child.kill('SIGTERM');
console.log(`snapshots in ${out}`);
