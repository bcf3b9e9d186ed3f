// Heap snapshots of the gateway (bench/serve-gateway.ts with npm start's flags) before and with N idle open
// streams (bench/serve-held-stream-upstream.ts holds each after its first event), for bench/heap-diff.ts.
// A warm-up of 200 streams opened and finished first, so lazily loaded code and pools are in both.
// Usage: node bench/held-streams-heap.ts [N, default 1000] [OUT_DIR] → two .heapsnapshot files in OUT_DIR.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = join(import.meta.dirname, '..');
const N = Number(process.argv[2] ?? 1000);
const out = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'held-heap-'));
const { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } = await import(join(root, 'bench/node-flags.ts'));
const { BENCH_KEY } = await import(join(root, 'bench/bench-constants.ts'));
function start(args: string[], flags: string[], cwd: string, env = process.env) {
  const child = spawn(process.execPath, [...flags, ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd, env });
  return new Promise<{ url: string; child: typeof child }>((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve({ url: l.slice(6).trim(), child })));
}
const held = await start([join(root, 'bench/serve-held-stream-upstream.ts')], SIMULATOR_NODE_FLAGS, out);
const gw = await start([join(root, 'bench/serve-gateway.ts'), held.url], [...gatewayNodeFlags(), '--heapsnapshot-signal=SIGUSR2'], out, { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
const g = new URL(gw.url);
const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hold' }] });
const req = `POST /v1/chat/completions HTTP/1.1\r\nHost: ${g.host}\r\nAuthorization: Bearer ${BENCH_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
function open(): Promise<{ s: Socket; ended: Promise<void> }> {
  const s = connect(Number(g.port), g.hostname);
  let first!: () => void; const f = new Promise<void>((r) => (first = r));
  const ended = new Promise<void>((r) => s.once('close', () => { first(); r(); }));
  s.on('data', (d: Buffer) => { if (d.includes(' e0')) first(); });
  s.write(req);
  return f.then(() => ({ s, ended }));
}
async function openMany(n: number) { const list = []; for (let i = 0; i < n; i += 100) list.push(...await Promise.all(Array.from({ length: Math.min(100, n - i) }, open))); return list; }
const snaps = () => readdirSync(out).filter((f) => f.endsWith('.heapsnapshot'));
async function snapshot() {
  const before = snaps().length;
  gw.child.kill('SIGUSR2');
  for (;;) { await new Promise((r) => setTimeout(r, 500)); const list = snaps(); if (list.length > before) { const f = list.sort().at(-1)!; const a = statSync(join(out, f)).size; await new Promise((r) => setTimeout(r, 1000)); if (statSync(join(out, f)).size === a) return; } }
}
// warm-up: open and finish some streams, so lazily loaded code and pools exist in both snapshots
let warm = await openMany(200);
await fetch(`${held.url}/release`, { method: 'POST' });
await Promise.all(warm.map((w) => w.ended));
await new Promise((r) => setTimeout(r, 1000));
await snapshot();
const list = await openMany(N);
await new Promise((r) => setTimeout(r, 1000));
await snapshot();
await fetch(`${held.url}/release`, { method: 'POST' });
await Promise.all(list.map((w) => w.ended));
gw.child.kill('SIGTERM'); held.child.kill('SIGTERM');
console.log(`snapshots in ${out}`);
