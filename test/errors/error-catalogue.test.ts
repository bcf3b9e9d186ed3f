// Errors are a closed set: every gateway error code is declared once (src/gateway-error-codes.ts) with its
// status, kind and the client codes it may carry, and an error is built from its code alone. This test reads
// every place in src that raises one and checks that none states a status or kind by hand and that every
// client code it sends is declared for its gateway code; it checks that docs/errors.md is what
// scripts/docs-errors.ts writes from the list (so the documented table cannot drift), and pins the one
// status-to-kind mapping. (tsc checks the same through the types:
// test/errors/gateway-error-construction.test.ts holds what it must refuse.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, kindForStatus, type DeclaredError } from '../../src/gateway-error-codes.ts';
import { renderErrorDocs } from '../../scripts/docs-errors.ts';

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
    if (at > 0 && /[\w$.]/.test(text[at - 1]!)) {
      from = at + callee.length;
      continue; // part of a longer name (toGatewayError, isForbidden) or a method
    }
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

/** The keys of an object literal's top level, in source text: `{ status, kind: x, headers: { a: 1 } }` → status, kind, headers. */
function topLevelKeys(objectText: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let expectingKey = false;
  for (let i = 0; i < objectText.length; i++) {
    const ch = objectText[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '{' || ch === '(' || ch === '[') {
      depth++;
      expectingKey = depth === 1 && ch === '{';
    } else if (ch === '}' || ch === ')' || ch === ']') depth--;
    else if (depth === 1 && ch === ',') expectingKey = true;
    else if (depth === 1 && expectingKey && /[A-Za-z_$]/.test(ch)) {
      const key = /^[A-Za-z_$][\w$]*/.exec(objectText.slice(i))![0];
      keys.push(key);
      i += key.length - 1;
      expectingKey = false;
    } else if (depth === 1 && expectingKey && ch === '.') expectingKey = false; // a spread: not a key
  }
  return keys;
}
const files = sourceFiles(join(root, 'src')).map((path) => ({ path: path.slice(root.length + 1), text: readFileSync(path, 'utf8') }));

describe('gateway error codes', () => {
  it('every GW_ERR code written in src is declared', () => {
    const used = new Set(files.flatMap(({ text }) => [...text.matchAll(/'(GW_ERR_[A-Z_]+)'/g)].map((match) => match[1]!)));
    expect([...used].filter((code) => !(code in declared))).toEqual([]);
  });

  it('builds every error from its code: no status or kind by hand outside the error module', () => {
    const byHand = files
      .filter(({ path }) => path !== 'src/gateway-errors.ts')
      .filter(({ text }) => callArguments(text, 'new GatewayError').length > 0)
      .map(({ path }) => path);
    expect(byHand).toEqual([]);
  });

  it('every gatewayError() call names a declared code, states no status or kind unless the status is the upstream\'s, and sends only its declared client codes', () => {
    const found: string[] = [];
    for (const { path, text } of files) {
      for (const args of callArguments(text, 'gatewayError')) {
        const code = literal(args[0]);
        if (!code) continue; // the function's own definition or a comment naming it
        const where = `${path}: ${code}`;
        expect(code in declared, where).toBe(true);
        found.push(code);
        const entry = declared[code]!;
        const statesByHand = topLevelKeys(args[1] ?? '').filter((key) => key === 'status' || key === 'kind');
        if (entry.status === 'upstream') expect(statesByHand, where).toContain('status');
        else expect(statesByHand, where).toEqual([]);
        const clientCode = /\bcode: '([A-Za-z0-9_.]+)'/.exec(args[1] ?? '')?.[1];
        if (clientCode && !entry.clientCodes.includes('upstream')) expect(entry.clientCodes, where).toContain(clientCode);
      }
    }
    expect(found.length).toBeGreaterThan(50);
  });

  it('the named constructors that take a client code are given only codes declared for theirs', () => {
    // Which argument carries the client code, and the gateway code it belongs to.
    const constructors = { invalidRequest: [2, 'GW_ERR_INVALID_REQUEST'], forbidden: [1, 'GW_ERR_FORBIDDEN'], conflict: [2, 'GW_ERR_CONFLICT'], invalidCredentials: [1, 'GW_ERR_INVALID_CREDENTIALS'] } as const;
    let checked = 0;
    for (const { path, text } of files) {
      for (const [name, [position, code]] of Object.entries(constructors)) {
        for (const args of callArguments(text, name)) {
          const clientCode = literal(args[position]);
          if (!clientCode) continue;
          checked++;
          expect(declared[code]!.clientCodes, `${path}: ${name}`).toContain(clientCode);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('docs/errors.md is exactly what npm run docs:errors writes from the catalogue', () => {
    const written = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    expect(written, 'docs/errors.md is out of date: run npm run docs:errors').toBe(renderErrorDocs());
  });

  it('the generated table has one row per declared code, with its status and client codes', () => {
    const rows = renderErrorDocs().split('\n').filter((line) => line.startsWith('| ') && line.includes('`GW_ERR_'));
    const listed = new Map(rows.map((line) => {
      const cells = line.split(' | ');
      const code = /`(GW_ERR_[A-Z_]+)`/.exec(cells[1]!)![1]!;
      return [code, { status: cells[0]!.replace('| ', '').trim(), clientCodes: [...cells[3]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]) }];
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
