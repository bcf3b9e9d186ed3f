// Where the resident memory of N idle open streams goes: the gateway (bench/serve-gateway.ts with npm start's
// flags and bench/memory-probe.ts preloaded) holds N streams from bench/serve-held-stream-upstream.ts, and its
// memory is read before and with them open: VmRSS, /proc/PID/smaps summed by kind (V8 heap pages are the
// 256 KB anonymous mappings, `[heap]` is malloc's brk heap) and V8's own statistics (heap used and
// committed per space, malloced, external). Each figure is given per stream. A warm-up of 200 streams first,
// as in bench/held-streams-heap.ts. Usage: node bench/held-streams-memory.ts [N, default 2000]
// (needs `ulimit -n` above 2N + 200; run it under `sh -c 'ulimit -n 20000; …'` when it is not).
// HELD_H2C=1: the upstream speaks h2c and the gateway's channel has `http2: true` (streams share connections).
import { spawn } from 'node:child_process';
import { heldStreamClient } from './held-streams-client.ts';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rssMb } from './proc-stats.ts';
import { askHeldUpstream } from './held-upstream-control.ts';

const root = join(import.meta.dirname, '..');
const N = Number(process.argv[2] ?? 2000);
const h2c = process.env.HELD_H2C === '1';
const { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } = await import(join(root, 'bench/node-flags.ts'));

interface Probe { heapUsed: number; heapTotal: number; external: number; malloced: number; spaces: Record<string, { size: number; used: number }> }
let probeWaiter: ((probe: Probe) => void) | null = null;
function start(args: string[], flags: string[], env = process.env) {
  const child = spawn(process.execPath, [...flags, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, env });
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.startsWith('MEMORY-PROBE ')) {
      const probe = JSON.parse(line.slice(13)) as Probe & { thread: string };
      if (probe.thread === 'main') probeWaiter?.(probe);
    }
  });
  return new Promise<{ url: string; child: typeof child }>((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve({ url: l.slice(6).trim(), child })));
}
const held = await start([join(root, 'bench/serve-held-stream-upstream.ts'), ...(h2c ? ['--h2c'] : [])], SIMULATOR_NODE_FLAGS);
const gw = await start([join(root, 'bench/serve-gateway.ts'), held.url], [...gatewayNodeFlags(), `--import=${join(root, 'bench/memory-probe.ts')}`], { ...process.env, MAX_CONNECTIONS_PER_IP: '0', MEMORY_PROBE_MS: '600000', BENCH_CHANNEL_HTTP2: h2c ? '1' : '0' });
const pid = gw.child.pid!;
const { openMany } = heldStreamClient(gw.url);

/** Resident kB of the gateway's mappings by kind. */
function smaps(): Record<string, number> {
  const out: Record<string, number> = { v8Pages: 0, brk: 0, otherAnon: 0, file: 0 };
  let kind = 'otherAnon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024;
      const name = head[3]!;
      kind = name === '[heap]' ? 'brk' : name.startsWith('/') ? 'file' : size === 256 ? 'v8Pages' : 'otherAnon';
    } else if (line.startsWith('Rss:')) {
      out[kind]! += Number(/(\d+)/.exec(line)![1]);
    }
  }
  return out;
}
function probe(): Promise<Probe> {
  return new Promise((resolve) => {
    probeWaiter = (p) => { probeWaiter = null; resolve(p); };
    gw.child.kill('SIGUSR2');
  });
}
async function measure() {
  await new Promise((r) => setTimeout(r, 1000));
  return { rss: rssMb(pid), maps: smaps(), probe: await probe() };
}

const warm = await openMany(200);
await askHeldUpstream(held.url, 'POST', '/release', h2c);
await Promise.all(warm.map((w) => w.ended));
const a = await measure();
const list = await openMany(N);
const b = await measure();
await askHeldUpstream(held.url, 'POST', '/release', h2c);
await Promise.all(list.map((w) => w.ended));
gw.child.kill('SIGTERM'); held.child.kill('SIGTERM');

const kb = (mbBefore: number, mbAfter: number) => (((mbAfter - mbBefore) * 1024) / N).toFixed(2);
console.log(`${N} idle open streams (${h2c ? 'HTTP/2 h2c' : 'HTTP/1.1'} to the upstream), per stream:`);
console.log(`  RSS ${kb(a.rss, b.rss)} KB (${a.rss.toFixed(1)} → ${b.rss.toFixed(1)} MB)`);
for (const k of Object.keys(a.maps)) console.log(`  smaps ${k}: ${((b.maps[k]! - a.maps[k]!) / N).toFixed(2)} KB`);
console.log(`  V8 heap used ${kb(a.probe.heapUsed, b.probe.heapUsed)} KB, committed ${kb(a.probe.heapTotal, b.probe.heapTotal)} KB; malloced ${kb(a.probe.malloced, b.probe.malloced)} KB; external ${kb(a.probe.external, b.probe.external)} KB`);
for (const space of Object.keys(b.probe.spaces)) {
  const x = a.probe.spaces[space]!, y = b.probe.spaces[space]!;
  if (Math.abs(y.size - x.size) + Math.abs(y.used - x.used) >= 0.5) console.log(`    ${space}: used ${kb(x.used, y.used)} KB, committed ${kb(x.size, y.size)} KB`);
}
