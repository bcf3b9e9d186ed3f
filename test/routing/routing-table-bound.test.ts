// The routing table caches each group's priority tiers per model. Model names come from clients: only models
// some channel serves may be cached, or a key holder naming made-up models would grow the gateway's memory
// without bound until the next reload (every unknown name used to leave an entry behind).
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { buildRoutingTable } from '../../src/routing/routing-table.ts';
import { createSecretBox } from '../../src/accounts/secret-box.ts';
import type { Channel } from '../../src/db/repositories/channels.ts';

const secrets = createSecretBox('test-secret-test-secret-test-secret');
const channel = (id: number, models: string[]): Channel => ({
  id, name: `c${id}`, type: 'openai', base_url: 'http://127.0.0.1:9', api_keys_encrypted: secrets.encrypt(JSON.stringify(['sk-up'])),
  models, model_mapping: {}, groups: ['default'], priority: 0, weight: 1,
  status: 'enabled', status_reason: null, settings: {}, created_at: 0, updated_at: 0,
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe('the routing table', () => {
  it('routes served models and keeps no entry for the made-up names clients send', () => {
    const table = buildRoutingTable([channel(1, ['gpt-4o']), channel(2, ['gpt-4o', 'claude'])], [], secrets);
    expect(table.tiers('default', 'gpt-4o').flat().map((routed) => routed.id).sort()).toEqual([1, 2]);
    expect(table.tiers('default', 'claude').flat().map((routed) => routed.id)).toEqual([2]);
    expect(table.tiers('default', 'no-such-model')).toEqual([]);
    const before = heapAfterGc();
    for (let i = 0; i < 100_000; i++) expect(table.tiers('default', `made-up-model-${i}-${'x'.repeat(40)}`).length).toBe(0);
    const grown = heapAfterGc() - before;
    // 100,000 cached names held 34 MB; nothing cached leaves well under 2 MB of noise.
    expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(2 * 1024 * 1024);
    expect(table.tiers('default', 'gpt-4o').flat().length).toBe(2);
  });
});
