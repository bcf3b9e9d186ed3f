// A deterministic generator of bad requests for every route: broken JSON, wrong types, huge strings, deep
// nesting, bad headers, URLs, methods and multipart bodies. Seeded, so a failure names a seed and an index
// that reproduce it exactly.

export interface MalformedRequest {
  /** What was done to it, for failure messages. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent over a raw socket instead (not valid HTTP, or a method no client library sends). */
  raw?: Buffer;
}

interface GeneratorKeys {
  user: string;
  admin: string;
}

/** mulberry32: small, fast and good enough to pick mutations. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Route {
  method: string;
  path: string;
  body?: () => Record<string, unknown>;
  multipart?: boolean;
  anthropic?: boolean;
}

const chat = () => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
const routes: Route[] = [
  { method: 'POST', path: '/v1/chat/completions', body: chat },
  { method: 'POST', path: '/v1/chat/completions', body: () => ({ ...chat(), model: 'claude-sonnet-4', stream: true }) },
  { method: 'POST', path: '/v1/chat/completions', body: () => ({ ...chat(), model: 'gemini-2.5-flash', messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] }) },
  { method: 'POST', path: '/v1/completions', body: () => ({ model: 'gpt-3.5-turbo-instruct', prompt: 'say', max_tokens: 3 }) },
  { method: 'POST', path: '/v1/embeddings', body: () => ({ model: 'text-embedding-3-small', input: ['a', 'b'] }) },
  { method: 'POST', path: '/v1/images/generations', body: () => ({ model: 'dall-e-3', prompt: 'a cat', size: '1024x1024' }) },
  { method: 'POST', path: '/v1/audio/speech', body: () => ({ model: 'tts-1', input: 'hello', voice: 'alloy' }) },
  { method: 'POST', path: '/v1/rerank', body: () => ({ model: 'rerank-1', query: 'q', documents: ['a', 'b'] }) },
  { method: 'POST', path: '/v1/responses', body: () => ({ model: 'gpt-4o', input: 'hi', max_output_tokens: 16 }) },
  { method: 'POST', path: '/v1/responses', body: () => ({ model: 'claude-sonnet-4', input: [{ role: 'user', content: 'hi' }] }) },
  { method: 'POST', path: '/v1/messages', anthropic: true, body: () => ({ model: 'claude-sonnet-4', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }) },
  { method: 'POST', path: '/v1/messages', anthropic: true, body: () => ({ model: 'gpt-4o', max_tokens: 5, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }) },
  { method: 'POST', path: '/v1beta/models/gemini-2.5-flash:generateContent', body: () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 5 } }) },
  { method: 'POST', path: '/v1beta/models/gpt-4o:streamGenerateContent?alt=sse', body: () => ({ contents: [{ parts: [{ text: 'hi' }] }] }) },
  { method: 'POST', path: '/v1/models/gemini-2.5-flash:generateContent', body: () => ({ contents: [{ parts: [{ text: 'hi' }] }] }) },
  { method: 'POST', path: '/v1/audio/transcriptions', multipart: true },
  { method: 'POST', path: '/v1/images/edits', multipart: true },
  { method: 'GET', path: '/v1/models' },
  { method: 'GET', path: '/v1/models/gpt-4o' },
  { method: 'GET', path: '/v1beta/models' },
  { method: 'GET', path: '/v1beta/models/gemini-2.5-flash' },
  { method: 'GET', path: '/v1/realtime?model=gpt-4o' },
  { method: 'GET', path: '/v1/dashboard/billing/subscription' },
  { method: 'GET', path: '/v1/dashboard/billing/usage' },
  { method: 'GET', path: '/dashboard/billing/usage' },
  { method: 'GET', path: '/api/stats?scope=user&bucket=minute' },
  { method: 'GET', path: '/api/admin/keys' },
  { method: 'POST', path: '/api/admin/keys', body: () => ({ user: 'fuzz', name: 'k', quota_usd: 1 }) },
  { method: 'PATCH', path: '/api/admin/keys/2', body: () => ({ enabled: true, rpm_limit: 1000 }) },
  { method: 'DELETE', path: '/api/admin/keys/999' },
  { method: 'POST', path: '/api/admin/users/1/grant', body: () => ({ amount_usd: 0.01, note: 'fuzz' }) },
  { method: 'GET', path: '/api/admin/channels' },
  { method: 'PATCH', path: '/api/admin/channels/1', body: () => ({ enabled: true }) },
  { method: 'POST', path: '/api/admin/channels/999/test', body: () => ({}) },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/healthz' },
];

const weirdValues = (random: () => number, big: () => string): unknown[] => [
  null, true, -1, 0, 1e308, -1e308, 2 ** 63, 1.5, '', ' ', '\u0000', 'x\u0000y', '\ud800', '💥', '__proto__', 'constructor',
  [], {}, [null], { __proto__: { polluted: true } }, { constructor: { prototype: { polluted: true } } }, [[[[]]]], big(),
  Array.from({ length: 2_000 }, () => random()), 'data:image/png;base64,!!!!', 'http://127.0.0.1:1/x.png', 'http://no-such-host.invalid/a.png',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Every path to a value inside `value` (objects and arrays), as key lists. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      pathsOf(child, path, out);
    }
  }
  return out;
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

function deepNesting(random: () => number): string {
  const depth = 2_000 + Math.floor(random() * 20_000);
  return random() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function bodyMutation(random: () => number, route: Route): { label: string; body: Buffer; contentType?: string } {
  const base = route.body?.() ?? {};
  const big = () => 'A'.repeat(random() < 0.2 ? 1_000_000 + Math.floor(random() * 2_000_000) : 1_000 + Math.floor(random() * 50_000));
  const json = JSON.stringify(base);
  const kind = Math.floor(random() * 10);
  switch (kind) {
    case 0: return { label: 'truncated JSON', body: Buffer.from(json.slice(0, Math.floor(random() * json.length))) };
    case 1: return { label: 'random bytes', body: Buffer.from(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256))) };
    case 2: return { label: 'not an object', body: Buffer.from(JSON.stringify(pick(random, [[], 'text', 42, null, true, [base]]))) };
    case 3: {
      const paths = pathsOf(base);
      if (paths.length === 0) return { label: 'empty object', body: Buffer.from('{}') };
      const path = pick(random, paths);
      const value = pick(random, weirdValues(random, big));
      setAt(base, path, value);
      return { label: `wrong type at ${path.join('.')}`, body: Buffer.from(JSON.stringify(base)) };
    }
    case 4: {
      const paths = pathsOf(base);
      const path = paths.length > 0 ? pick(random, paths) : ['x'];
      setAt(base, path, '__HOLE__');
      return { label: `deep nesting at ${path.join('.')}`, body: Buffer.from(JSON.stringify(base).replace('"__HOLE__"', deepNesting(random))) };
    }
    case 5: {
      const paths = pathsOf(base).filter((path) => typeof path.at(-1) === 'string');
      const path = paths.length > 0 ? pick(random, paths) : ['model'];
      setAt(base, path, big());
      return { label: `huge string at ${path.join('.')}`, body: Buffer.from(JSON.stringify(base)) };
    }
    case 6: {
      const paths = pathsOf(base);
      if (paths.length > 0) {
        const path = pick(random, paths);
        setAt(base, path, undefined);
      }
      return { label: 'a field removed', body: Buffer.from(JSON.stringify(base)) };
    }
    case 7: return { label: 'invalid UTF-8 in a string', body: Buffer.concat([Buffer.from(json.slice(0, -2)), Buffer.from([0x22, 0xff, 0xfe, 0xc3, 0x22]), Buffer.from('}')]) };
    case 8: return { label: 'duplicate keys and a BOM', body: Buffer.from(`\ufeff${json.slice(0, -1)},"model":${JSON.stringify(pick(random, ['', 'nope', '../../etc/passwd', big()]))}}`) };
    default: return { label: 'unknown fields', body: Buffer.from(JSON.stringify({ ...base, [big().slice(0, 200)]: pick(random, weirdValues(random, big)), extra: { nested: deepNesting(random).length } })) };
  }
}

function multipartMutation(random: () => number): { label: string; body: Buffer; contentType: string } {
  const boundary = 'fuzz' + Math.floor(random() * 1e9);
  const part = (name: string, value: string, file?: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/octet-stream` : ''}\r\n\r\n${value}\r\n`;
  const whole = part('model', pick(random, ['whisper-1', 'dall-e-2', '', 'x'.repeat(5_000)])) + part(pick(random, ['file', 'image', 'mask']), 'RIFF\u0000\u0000WAVE' + 'x'.repeat(Math.floor(random() * 500)), pick(random, ['a.wav', 'a.png', '', '../../x'])) + part('prompt', pick(random, ['hi', '', '\u0000'])) + `--${boundary}--\r\n`;
  switch (Math.floor(random() * 6)) {
    case 0: return { label: 'multipart without boundary', body: Buffer.from(whole), contentType: 'multipart/form-data' };
    case 1: return { label: 'multipart truncated', body: Buffer.from(whole.slice(0, Math.floor(random() * whole.length))), contentType: `multipart/form-data; boundary=${boundary}` };
    case 2: return { label: 'multipart with the wrong boundary', body: Buffer.from(whole), contentType: 'multipart/form-data; boundary=other' };
    case 3: return { label: 'multipart with an empty boundary', body: Buffer.from(whole), contentType: 'multipart/form-data; boundary=' };
    case 4: return { label: 'JSON sent to a multipart route', body: Buffer.from('{"model":"whisper-1"}'), contentType: 'application/json' };
    default: return { label: 'multipart, fields as sent', body: Buffer.from(whole), contentType: `multipart/form-data; boundary=${boundary}` };
  }
}

function authHeaders(random: () => number, keys: GeneratorKeys, route: Route): Record<string, string> {
  const key = pick(random, [keys.user, keys.user, keys.admin, keys.admin, 'sk-wrong', '', 'sk-' + 'z'.repeat(48)]);
  const how = Math.floor(random() * 4);
  const headers: Record<string, string> = {};
  if (how === 0) headers.authorization = `Bearer ${key}`;
  else if (how === 1) headers['x-api-key'] = key;
  else if (how === 2) headers['x-goog-api-key'] = key;
  else headers.authorization = pick(random, [`Bearer ${key}`, `Basic ${key}`, 'Bearer', `bearer  ${key}`, key]);
  if (route.anthropic && random() < 0.8) headers['anthropic-version'] = pick(random, ['2023-06-01', '', '1999-01-01']);
  return headers;
}

function urlMutation(random: () => number, path: string): { label: string; path: string } {
  switch (Math.floor(random() * 8)) {
    case 0: return { label: 'bad %-escape', path: path.replace(/\/([^/]*)$/, '/%25ZZ$1') };
    case 1: return { label: 'raw bad %-escape', path: `${path}%ZZ` };
    case 2: return { label: 'long segment', path: path.replace(/\/([^/?]*)/, `/${'s'.repeat(150 + Math.floor(random() * 3_000))}$1`) };
    case 3: return { label: 'query junk', path: `${path}${path.includes('?') ? '&' : '?'}${pick(random, ['bucket=constructor', 'bucket=__proto__', 'scope=platform', 'from=abc&to=-1', 'alt=xml', 'key=sk-x', 'model=%00', 'a[b][c]=1', 'x=' + 'y'.repeat(5_000)])}` };
    case 4: return { label: 'double slashes', path: `/${path}` };
    case 5: return { label: 'dot segments', path: `/v1/../${path.slice(1)}` };
    case 6: return { label: 'unknown route', path: pick(random, ['/v2/chat', '/v1/chat/completions/extra', '/api/admin', '/api/admin/users/abc/grant', '/v1beta/models/x:nope', '/v1beta/models/:generateContent', '/%2e%2e/%2e%2e/etc/passwd', '/v1/messages/count_tokens']) };
    default: return { label: 'trailing ?', path: `${path}?` };
  }
}

function rawMutation(random: () => number, route: Route): { label: string; raw: Buffer } {
  const path = route.path;
  const cases: [string, string][] = [
    ['invalid method token', `G@T ${path} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['CONNECT', `CONNECT ${pick(random, ['example.com:443', path])} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['space in header name', `GET ${path} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`],
    ['header overflow', `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(17_000 + Math.floor(random() * 10_000))}\r\n\r\n`],
    ['unknown Expect', `POST ${path} HTTP/1.1\r\nHost: x\r\nExpect: ${pick(random, ['200-ok', 'x', '100-continue-ish'])}\r\nContent-Length: 2\r\n\r\n{}`],
    ['Content-Length mismatch', `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}`],
    ['bad chunked body', `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`],
    ['HTTP/0.9-ish request line', `GET ${path}\r\n\r\n`],
    ['control characters in the URL', `GET ${path}\u0001\u007f HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['oversized Content-Length', `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{"a":`],
  ];
  const [label, raw] = pick(random, cases);
  return { label: `raw: ${label}`, raw: Buffer.from(raw, 'latin1') };
}

export function* malformedRequests(seed: number, count: number, keys: GeneratorKeys): Generator<MalformedRequest> {
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    const route = pick(random, routes);
    const roll = random();
    if (roll < 0.08) {
      const { label, raw } = rawMutation(random, route);
      yield { label, method: 'RAW', path: route.path, headers: {}, raw };
      continue;
    }
    const headers = { ...authHeaders(random, keys, route) };
    let { method, path } = route;
    let label: string;
    let body: Buffer | undefined;
    if (roll < 0.18) {
      ({ label, path } = urlMutation(random, path));
      if (route.body) body = Buffer.from(JSON.stringify(route.body()));
    } else if (roll < 0.26) {
      method = pick(random, ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST', 'GET', 'TRACE']);
      label = `method ${method}`;
      if (route.body && method !== 'GET' && method !== 'HEAD') body = Buffer.from(JSON.stringify(route.body()));
    } else if (roll < 0.34) {
      label = 'bad headers';
      if (route.body) body = Buffer.from(JSON.stringify(route.body()));
      const bad = pick(random, [
        { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'multipart/form-data; boundary=zz' },
        { 'content-type': 'application/json; charset=utf-16' }, { 'content-encoding': 'gzip' }, { 'accept-version': '9' },
        { 'anthropic-version': '\u00ff'.repeat(10) }, { 'x-forwarded-for': '999.1.1.1, ::::' }, { 'x-request-id': 'r'.repeat(8_000) },
        { 'anthropic-beta': 'x'.repeat(4_000) }, { 'openai-beta': 'realtime=v1' }, { authorization: `Bearer ${'k'.repeat(12_000)}` },
      ] as Record<string, string>[]);
      Object.assign(headers, bad);
    } else if (route.multipart) {
      const mutation = multipartMutation(random);
      label = mutation.label;
      body = mutation.body;
      headers['content-type'] = mutation.contentType;
    } else if (route.body) {
      const mutation = bodyMutation(random, route);
      label = mutation.label;
      body = mutation.body;
    } else {
      ({ label, path } = urlMutation(random, path));
    }
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    yield { label, method, path, headers, ...(body !== undefined ? { body } : {}) };
  }
}
