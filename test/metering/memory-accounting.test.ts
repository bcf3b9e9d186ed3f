// One instance's counters: a grant written while the wallet is first being loaded counts exactly once.
import { expect, it } from 'vitest';
import { createMemoryAccounting } from '../../src/metering/memory-accounting.ts';

it('counts a grant once when it overlaps the first load of the wallet', async () => {
  let stored = 100;
  let releaseLoad: (() => void) | null = null;
  const accounting = createMemoryAccounting({
    // The first read sees the balance before the grant, and answers only after the grant is written.
    loadBalance: async () => {
      const value = stored;
      if (!releaseLoad) await new Promise<void>((resolve) => (releaseLoad = resolve));
      return value;
    },
    loadKeyUsed: async () => 0,
  });
  const firstUse = accounting.balance(1);
  await new Promise((resolve) => setImmediate(resolve));
  await accounting.changeWallet(1, 50, async () => {
    stored += 50;
  });
  releaseLoad!();
  expect(await firstUse).toBe(150);
  expect(await accounting.balance(1)).toBe(150);
  await accounting.changeWallet(1, -30, async () => {
    stored -= 30;
  });
  expect(await accounting.balance(1)).toBe(120);
});

it('counts a grant once when the wallet was not loaded at all (issue 10: $0.05 + $0.05 answered $0.15)', async () => {
  let stored = 50_000;
  const accounting = createMemoryAccounting({ loadBalance: async () => stored, loadKeyUsed: async () => 0 });
  await accounting.changeWallet(1, 50_000, async () => {
    stored += 50_000;
  });
  expect(await accounting.balance(1)).toBe(100_000);
});
