// The x-gateway-warnings header: like warnings grouped by reason (a long conversation makes one per old
// turn), each change once, the value bounded so no client's header limit is reached, printable ASCII only.
import { describe, expect, it } from 'vitest';
import { ClientWarnings, describeHubWarnings, WARNINGS_HEADER } from '../../src/relay/client-warnings.ts';
import type { RelayResult } from '../../src/relay/relay-types.ts';

const result = (): RelayResult => ({ kind: 'buffer', status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });

describe('client warnings', () => {
  it('group warnings with the same reason, naming a few fields and how many more', () => {
    const dropped = (feature: string) => ({ type: 'dropped' as const, feature, detail: 'reasoning from another provider was left out.' });
    const lines = describeHubWarnings([...['a', 'b', 'c', 'd', 'e'].map(dropped), { type: 'unsupported', feature: 'temperature', detail: 'sent as 1.' }]);
    expect(lines).toEqual(['a, b, c and 2 more dropped: reasoning from another provider was left out.', 'temperature changed: sent as 1.']);
  });

  it('adds no header when nothing changed, and the answering channel\'s changes after the ones that always hold', () => {
    const warnings = new ClientWarnings();
    expect(warnings.onto(result()).headers).not.toHaveProperty(WARNINGS_HEADER);
    warnings.add('tools dropped: m does not call tools');
    warnings.answered(['seed dropped: no seed', 'seed dropped: no seed']);
    expect(warnings.onto(result()).headers[WARNINGS_HEADER]).toBe('tools dropped: m does not call tools; seed dropped: no seed');
    // Another channel answered after all: only its changes hold.
    warnings.answered([]);
    expect(warnings.onto(result()).headers[WARNINGS_HEADER]).toBe('tools dropped: m does not call tools');
  });

  it('keeps the header under 2,000 printable characters, saying how many changes were left for the log', () => {
    const warnings = new ClientWarnings();
    for (let i = 0; i < 200; i++) warnings.add(`field_${i} dropped: a reason long enough to fill the header — with a dash`);
    const value = warnings.onto(result()).headers[WARNINGS_HEADER]!;
    expect(value.length).toBeLessThan(2100);
    expect(value).toMatch(/; \d+ more change\(s\), in the gateway's log$/);
    expect(value).toMatch(/^[\x20-\x7e]+$/);
  });
});
