// Errors are a closed set: every gateway error code is declared once (src/gateway-error-codes.ts) with its
// status, kind and the client codes it may carry. This test reads every place in src that raises one and
// checks it against the declaration, checks the README's error table against the list in both directions,
// and pins the one status-to-kind mapping.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, kindForStatus, type DeclaredError } from '../../src/gateway-error-codes.ts';

const root = join(import.meta.dirname, '../..');
const declared = GATEWAY_ERRORS as Record<string, DeclaredError>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The top-level arguments of each call of `callee` in `text`, as source text (strings and nesting respected). */
function callArguments(text: string, callee: string): string[][] {
  const calls: string[][] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(`${callee}(`, from);
    if (at < 0) return calls;
    let depth = 0;
    let quote: string | null = null;
    let current = '';
    const args: string[] = [];
    for (let i = at + callee.length; i < text.length; i++) {
      const ch = text[i]!;
      if (quote) {
        current += ch;
        if (ch === '\\') current += text[++i] ?? '';
        else if (ch === quote) quote = null;
        continue;
      }
      if (ch === "'" || ch === '"' || ch === '`') quote = ch;
      if (ch === '(' || ch === '{' || ch === '[') depth++;
      if (ch === ')' || ch === '}' || ch === ']') depth--;
      if (depth === 0) {
        args.push(current.trim());
        break;
      }
      if (depth === 1 && ch === ',') {
        args.push(current.trim());
        current = '';
      } else if (!(depth === 1 && ch === '(' && current === '')) current += ch;
    }
    calls.push(args);
    from = at + callee.length;
  }
}

const literal = (arg: string | undefined) => /^'([^']*)'$/.exec(arg ?? '')?.[1];
const files = sourceFiles(join(root, 'src')).map((path) => ({ path: path.slice(root.length + 1), text: readFileSync(path, 'utf8') }));

describe('gateway error codes', () => {
  it('every GW_ERR code written in src is declared', () => {
    const used = new Set(files.flatMap(({ text }) => [...text.matchAll(/'(GW_ERR_[A-Z_]+)'/g)].map((match) => match[1]!)));
    expect([...used].filter((code) => !(code in declared))).toEqual([]);
  });

  it('every place that raises one uses the declared status, kind and client codes', () => {
    const found: string[] = [];
    for (const { path, text } of files) {
      for (const args of callArguments(text, 'new GatewayError')) {
        const code = literal(args[2]);
        if (!code) continue; // the class itself, or a code passed through
        const entry = declared[code]!;
        found.push(code);
        const where = `${path}: ${code}`;
        if (entry.status === 'upstream') expect(args[0], where).not.toMatch(/^\d+$/);
        else expect(Number(args[0]), where).toBe(entry.status);
        if (entry.kind !== 'by-status') expect(literal(args[1]), where).toBe(entry.kind);
        const clientCode = /\bcode: '([a-z_]+)'/.exec(args[3] ?? '')?.[1];
        if (clientCode) expect(entry.clientCodes, where).toContain(clientCode);
      }
      for (const args of callArguments(text, 'invalidRequest')) {
        const clientCode = literal(args[2]);
        if (clientCode) expect(GATEWAY_ERRORS.GW_ERR_INVALID_REQUEST.clientCodes as readonly string[], `${path}: invalidRequest`).toContain(clientCode);
      }
    }
    expect(found.length).toBeGreaterThan(20);
  });

  it("the README's error table lists exactly the declared codes, with their status and client codes", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Errors'), readme.indexOf('\n## ', readme.indexOf('### Errors')));
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && line.includes('`GW_ERR_'));
    const listed = new Map(rows.map((line) => {
      const cells = line.split(' | ');
      const code = /`(GW_ERR_[A-Z_]+)`/.exec(cells[1]!)![1]!;
      return [code, { status: cells[0]!.replace('| ', '').trim(), clientCodes: [...cells[2]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]) }];
    }));
    expect([...listed.keys()].sort()).toEqual(Object.keys(declared).sort());
    for (const [code, row] of listed) {
      const entry = declared[code]!;
      expect(row.status, code).toBe(entry.status === 'upstream' ? "upstream's" : String(entry.status));
      expect(row.clientCodes, code).toEqual(entry.clientCodes.filter((clientCode) => clientCode !== 'upstream'));
    }
  });

  it('maps an upstream status to one kind, whichever path read it', () => {
    expect([400, 401, 402, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504, 529, 418].map(kindForStatus)).toEqual([
      'invalid_request_error', 'authentication_error', 'insufficient_quota', 'permission_error', 'invalid_request_error',
      'timeout_error', 'request_too_large', 'invalid_request_error', 'rate_limit_error', 'server_error', 'upstream_error',
      'overloaded_error', 'timeout_error', 'overloaded_error', 'invalid_request_error',
    ]);
  });
});
