// The dashboard's `next` after sign-in is no looser than the server's: both accept exactly the same paths.
import { describe, expect, it } from 'vitest';
import { safeNext } from '../../web/src/app/safe-next.ts';
import { safeReturnPath } from '../../src/accounts/signin-flows.ts';

const CASES = [
  '/', '/keys', '/orgs/join?token=abc', '/logs?from=1&to=2#top', '/a/b/c',
  '//evil.example', '/\\evil.example', '/\\/evil.example', 'https://evil.example', 'evil.example', 'javascript:alert(1)',
  '/ keys', '/keys\n', '/keys\t', '/x\u0000', '\\\\evil.example', '', `/${'a'.repeat(1000)}`, `/${'a'.repeat(998)}`,
];

describe('the next path after sign-in', () => {
  it.each(CASES)('%j gets the same answer in the dashboard and on the server', (value) => {
    expect(safeNext(value)).toBe(safeReturnPath(value));
  });

  it('keeps a path on this site and turns anything else into /', () => {
    expect(safeNext('/orgs/join?token=abc')).toBe('/orgs/join?token=abc');
    for (const hostile of ['//evil.example', '/\\evil.example', 'https://evil.example', null, undefined]) expect(safeNext(hostile)).toBe('/');
  });
});
