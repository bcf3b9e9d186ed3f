// What the member-cap wrapper (src/metering/capped-accounting.ts) adds to admission: reserve+settle through
// memory accounting, bare and wrapped, for a key without a cap (every personal key) and one with a cap.
// npx node bench/member-caps-overhead.ts (docs/metering.md quotes its numbers).
import { createMemoryAccounting } from '../src/metering/memory-accounting.ts';
import { withMemberCaps } from '../src/metering/capped-accounting.ts';
import { createMemoryMemberCaps, type MemberCapRef } from '../src/metering/member-caps.ts';
import type { Accounting } from '../src/metering/accounting.ts';

const store = { loadBalance: async () => 1e15, loadKeyUsed: async () => 0 };
const N = 1_000_000;
async function run(label: string, accounting: Accounting, memberCap: MemberCapRef | null) {
  const limits = { userId: 1, keyId: 1, keyQuotaMicros: null, memberCap };
  for (let i = 0; i < 50_000; i++) { const r = await accounting.reserve(limits, 10); await accounting.settle(r!, 1); }
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) { const r = await accounting.reserve(limits, 10); await accounting.settle(r!, 1); }
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`${label}: ${ns.toFixed(0)} ns per reserve+settle`);
}
for (let round = 0; round < 2; round++) {
  await run('bare memory accounting, no cap      ', createMemoryAccounting(store), null);
  await run('with the cap wrapper, key without cap', withMemberCaps(createMemoryAccounting(store), createMemoryMemberCaps(async () => 0)), null);
  await run('with the cap wrapper, key with a cap ', withMemberCaps(createMemoryAccounting(store), createMemoryMemberCaps(async () => 0)), { organisationId: 1, memberUserId: 2, walletUserId: 1, capMicros: 1e15 });
}
