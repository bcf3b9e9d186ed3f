// Who holds what each open stream adds: the objects new in the AFTER snapshot (node ids absent from BEFORE;
// both from one process, bench/held-streams-heap.ts), grouped by the nearest object that dominates them
// and has a constructor in OWNERS (a Socket, the UpstreamHandler, …), with their retained size per stream.
// bench/heap-diff.ts says what kinds of objects are added; this says which of our objects keeps them.
// Usage: node bench/heap-owners.ts BEFORE AFTER N [OWNER=Name]  (OWNER lists that owner's new objects by kind
// and the edge from their nearest new named object, to find which field or closure holds them; OWNER=* all.)
import { readFileSync } from 'node:fs';

const [beforeFile, afterFile, nText, ownerArg] = process.argv.slice(2);
if (!beforeFile || !afterFile || !nText) throw new Error('usage: heap-owners.ts BEFORE AFTER N [OWNER=Name]');
const n = Number(nText);
const detailOwner = ownerArg?.startsWith('OWNER=') ? ownerArg.slice(6) : null;

interface Snapshot { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; nodes: number[]; edges: number[]; strings: string[] }
function load(file: string): Snapshot {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  return { meta: raw.snapshot.meta, nodes: raw.nodes, edges: raw.edges, strings: raw.strings };
}

const before = load(beforeFile);
const beforeIds = new Set<number>();
{
  const w = before.meta.node_fields.length; const idAt = before.meta.node_fields.indexOf('id');
  for (let i = 0; i < before.nodes.length; i += w) beforeIds.add(before.nodes[i + idAt]!);
}
const s = load(afterFile);
const nf = s.meta.node_fields; const W = nf.length;
const T = nf.indexOf('type'), NAME = nf.indexOf('name'), ID = nf.indexOf('id'), SELF = nf.indexOf('self_size'), EC = nf.indexOf('edge_count');
const EW = s.meta.edge_fields.length; const ET = s.meta.edge_fields.indexOf('type'), EN = s.meta.edge_fields.indexOf('name_or_index'), ETO = s.meta.edge_fields.indexOf('to_node');
const nodeTypes = s.meta.node_types[0]; const edgeTypes = s.meta.edge_types[0];
const count = s.nodes.length / W;
const firstEdge = new Uint32Array(count + 1);
for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i]! + s.nodes[i * W + EC]! * EW;
const weak = edgeTypes.indexOf('weak'); const shortcut = edgeTypes.indexOf('shortcut');
const typeOf = (i: number) => nodeTypes[s.nodes[i * W + T]!]!;
const nameOf = (i: number) => s.strings[s.nodes[i * W + NAME]!]!;
const isNew = (i: number) => !beforeIds.has(s.nodes[i * W + ID]!);
const edgeName = (e: number) => { const t = edgeTypes[s.edges[e + ET]!]; const v = s.edges[e + EN]!; return t === 'element' || t === 'hidden' ? `[${v}]` : s.strings[v]!; };

// Dominators (Cooper, Harvey, Kennedy) over strong edges from the root (node 0).
const order = new Int32Array(count).fill(-1); const post: number[] = [];
{
  const stack: number[] = [0]; const edgeAt: number[] = [firstEdge[0]!]; order[0] = -2;
  while (stack.length) {
    const v = stack[stack.length - 1]!; let e = edgeAt[edgeAt.length - 1]!;
    let pushed = false;
    while (e < firstEdge[v + 1]!) {
      const t = s.edges[e + ET]!; const to = s.edges[e + ETO]! / W; e += EW;
      if (t === weak || t === shortcut || order[to] !== -1) continue;
      order[to] = -2; edgeAt[edgeAt.length - 1] = e; stack.push(to); edgeAt.push(firstEdge[to]!); pushed = true; break;
    }
    if (!pushed) { stack.pop(); edgeAt.pop(); order[v] = post.length; post.push(v); }
  }
}
const preds: number[][] = Array.from({ length: count }, () => []);
for (let v = 0; v < count; v++) {
  if (order[v]! < 0) continue;
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EW) {
    const t = s.edges[e + ET]!; if (t === weak || t === shortcut) continue;
    const to = s.edges[e + ETO]! / W; if (order[to]! >= 0) preds[to]!.push(v);
  }
}
const idom = new Int32Array(count).fill(-1); idom[0] = 0;
const intersect = (a: number, b: number) => { while (a !== b) { while (order[a]! < order[b]!) a = idom[a]!; while (order[b]! < order[a]!) b = idom[b]!; } return a; };
for (let changed = true; changed;) {
  changed = false;
  for (let k = post.length - 2; k >= 0; k--) {
    const v = post[k]!; let d = -1;
    for (const p of preds[v]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
    if (d !== -1 && idom[v] !== d) { idom[v] = d; changed = true; }
  }
}

// The owner of a new object: its nearest dominator that is a named object of interest.
const OWNERS = new Set(['Socket', 'TLSSocket', 'ServerResponse', 'IncomingMessage', 'Client', 'Parser', 'Request', 'RequestController', 'UpstreamHandler', 'LaneExchange', 'SseConvertingPump', 'streamToClient', 'Generator', 'HTTPParser', 'TCP', 'Timeout', 'FastTimer', 'AbortController', 'AbortSignal', 'Promise', 'PassthroughStreamConverter', 'TranslatedChatHop', 'ContinuableOpenAIPassthroughHop', 'ByChannelFormatHop', 'system / Context', 'ClientHttp2Stream', 'ClientHttp2Session', 'Http2Stream']);
const ownerOf = (i: number) => { let v = idom[i]!; while (v !== 0 && !(OWNERS.has(nameOf(v)) && typeOf(v) === 'object')) v = idom[v]!; return v; };
const byOwner = new Map<string, { c: number; s: number }>();
const detail = new Map<string, { c: number; s: number }>();
let total = 0;
for (let i = 0; i < count; i++) {
  if (!isNew(i) || order[i]! < 0) continue;
  const size = s.nodes[i * W + SELF]!; total += size;
  const o = ownerOf(i);
  const key = o === 0 ? '(no owner)' : `${nameOf(o)}${isNew(o) ? '' : ' (old)'}`;
  const e = byOwner.get(key) ?? { c: 0, s: 0 }; e.c++; e.s += size; byOwner.set(key, e);
  if (detailOwner && (detailOwner === '*' || (o === 0 ? detailOwner === '(no owner)' : `${nameOf(o)}${isNew(o) ? '' : ' (old)'}` === detailOwner || nameOf(o) === detailOwner))) {
    // the edge that leads from the owner's subtree to this object, on the way down from the owner
    let path = ''; let v = i; let hops = 0;
    while (v !== o && hops < 6 && v !== 0) {
      const d = idom[v]!; let via = '?';
      for (let e2 = firstEdge[d]!; e2 < firstEdge[d + 1]!; e2 += EW) if (s.edges[e2 + ETO]! / W === v) { via = edgeName(e2); break; }
      path = `${nameOf(d).slice(0, 24)}.${via}${path ? ' > ' + path : ''}`; v = d; hops++;
    }
    const k = `${detailOwner === '*' ? (o === 0 ? '-' : nameOf(o)) + ': ' : ''}${typeOf(i)}|${typeOf(i) === 'string' || typeOf(i) === 'concatenated string' ? '' : nameOf(i).slice(0, 40)}  ← ${path}`;
    const e3 = detail.get(k) ?? { c: 0, s: 0 }; e3.c++; e3.s += size; detail.set(k, e3);
  }
}
console.log(`new objects reachable: ${(total / n / 1024).toFixed(2)} KB per stream`);
for (const [k, e] of [...byOwner].sort((a, b) => b[1].s - a[1].s).slice(0, 40)) console.log(`${(e.c / n).toFixed(2).padStart(7)} ${(e.s / n).toFixed(0).padStart(6)} B  ${k}`);
if (detailOwner) {
  console.log(`--- owned by ${detailOwner}`);
  for (const [k, e] of [...detail].sort((a, b) => b[1].s - a[1].s).slice(0, Number(process.env.TOP ?? 60))) console.log(`${(e.c / n).toFixed(2).padStart(7)} ${(e.s / n).toFixed(0).padStart(6)} B  ${k}`);
}
// RETAINERS=name: the retainer chains (any edge but weak) of the first new object so named, up to 10 levels.
if (process.env.RETAINERS) {
  const want = process.env.RETAINERS;
  const retainers: number[][] = Array.from({ length: count }, () => []);
  for (let v = 0; v < count; v++) for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EW) if (s.edges[e + ET] !== weak) retainers[s.edges[e + ETO]! / W]!.push(e * count + v);
  let target = -1;
  for (let i = 0; i < count && target < 0; i++) if (isNew(i) && nameOf(i) === want) target = i;
  const show = (v: number, depth: number, seen: Set<number>): void => {
    if (depth > 10 || seen.has(v)) return;
    seen.add(v);
    for (const packed of retainers[v]!.slice(0, 4)) {
      const from = packed % count; const e = (packed - from) / count;
      console.log(`${'  '.repeat(depth)}← ${typeOf(from)} ${nameOf(from).slice(0, 40)}${isNew(from) ? '' : ' (old)'} .${edgeName(e)}`);
      if (isNew(from)) show(from, depth + 1, seen);
    }
  };
  if (target >= 0) { console.log(`--- retainers of ${typeOf(target)} ${want}`); show(target, 0, new Set()); }
}
// DUMP=name: the edges of a few new objects so named (what they hold).
if (process.env.DUMP) {
  let shown = 0;
  for (let i = 0; i < count && shown < 3; i++) {
    if (!isNew(i) || nameOf(i) !== process.env.DUMP) continue;
    shown++;
    console.log(`--- ${typeOf(i)} ${nameOf(i)} (${s.nodes[i * W + SELF]} B)`);
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EW) {
      const to = s.edges[e + ETO]! / W;
      console.log(`  .${edgeName(e)} → ${typeOf(to)} ${nameOf(to).slice(0, 60)}${isNew(to) ? '' : ' (old)'}`);
    }
  }
}
