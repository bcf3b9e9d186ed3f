// Per-stream difference of two heap snapshots (bench/held-streams-heap.ts): count and self size by node type
// and constructor or function name, divided by N. Usage: node bench/heap-diff.ts BEFORE AFTER N (TOP=rows)
import { readFileSync } from 'node:fs';
const [a, b, nText] = process.argv.slice(2);
const n = Number(nText);
function agg(file: string) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const f = snap.snapshot.meta.node_fields as string[]; const types = snap.snapshot.meta.node_types[0] as string[];
  const w = f.length; const ti = f.indexOf('type'), ni = f.indexOf('name'), si = f.indexOf('self_size');
  const m = new Map<string, { c: number; s: number }>(); let total = 0;
  const nodes = snap.nodes as number[]; const strings = snap.strings as string[];
  for (let i = 0; i < nodes.length; i += w) {
    const type = types[nodes[i + ti]!]!; let name = strings[nodes[i + ni]!]!;
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '';
    if (type === 'number') name = '';
    if (name.length > 60) name = name.slice(0, 60);
    const k = `${type}|${name}`; const e = m.get(k) ?? { c: 0, s: 0 }; e.c++; e.s += nodes[i + si]!; m.set(k, e); total += nodes[i + si]!;
  }
  return { m, total };
}
const A = agg(a!), B = agg(b!);
console.log(`total self size per stream: ${((B.total - A.total) / n / 1024).toFixed(2)} KB`);
const rows: [string, number, number][] = [];
for (const [k, e] of B.m) { const p = A.m.get(k) ?? { c: 0, s: 0 }; rows.push([k, (e.c - p.c) / n, (e.s - p.s) / n]); }
rows.sort((x, y) => y[2] - x[2]);
for (const r of rows.slice(0, Number(process.env.TOP ?? 70))) if (Math.abs(r[1]) >= 0.5 || Math.abs(r[2]) > 20) console.log(`${r[1].toFixed(2).padStart(7)} ${r[2].toFixed(0).padStart(6)} B  ${r[0]}`);
const byType = new Map<string, [number, number]>();
for (const r of rows) { const t = r[0].split('|')[0]!; const e = byType.get(t) ?? [0, 0]; e[0] += r[1]; e[1] += r[2]; byType.set(t, e); }
console.log('--- by type'); for (const [t, e] of [...byType].sort((x, y) => y[1][1] - x[1][1])) console.log(`${e[0].toFixed(1).padStart(7)} ${e[1].toFixed(0).padStart(6)} B  ${t}`);
