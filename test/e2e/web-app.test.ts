// The gateway serves the built dashboard at / (npm test builds it first): every client route answers the
// app's page, hashed assets come precompressed and cached for good, and the API keeps its own 404s.
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
const entryScript = `/${manifest['index.html']!.file}`;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({});
});
afterAll(async () => gateway?.dispose());

describe('the dashboard at /', () => {
  it.each(['/', '/login', '/signup', '/verify-email?token=abc', '/keys', '/playground', '/settings', '/admin/users'])('answers %s with the app', async (path) => {
    const response = await fetch(`${gateway.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(entryScript);
  });

  it('sends hashed assets precompressed and immutable', async () => {
    const brotli = await fetch(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('cache-control')).toContain('immutable');
    expect(brotli.headers.get('content-type')).toContain('javascript');
    const plain = await fetch(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(10_000);
    expect(plain.headers.get('vary')).toContain('accept-encoding');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    // gzip when brotli is not accepted (or refused with q=0); `*` counts as gzip.
    for (const accept of ['gzip, deflate', 'br;q=0, gzip', '*']) {
      const answer = await fetch(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': accept } });
      expect([accept, answer.headers.get('content-encoding')]).toEqual([accept, 'gzip']);
      expect(answer.headers.get('content-type')).toContain('javascript');
      await answer.arrayBuffer();
    }
    // Validators: the same ETag revalidates to 304; ranges and HEAD as a file server answers them.
    const etag = plain.headers.get('etag');
    expect(etag).toBeTruthy();
    // (Not with fetch: it adds `cache-control: no-cache` to a conditional request, which asks for a full answer.)
    const revalidated = await new Promise<number>((resolve, reject) => {
      get(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': 'identity', 'if-none-match': etag! } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode!);
      }).on('error', reject);
    });
    expect(revalidated).toBe(304);
    const part = await fetch(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': 'identity', range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${Buffer.byteLength(body)}`);
    expect(await part.text()).toBe(Buffer.from(body).subarray(0, 100).toString());
    const beyond = await fetch(`${gateway.url}${entryScript}`, { headers: { 'accept-encoding': 'identity', range: `bytes=${Buffer.byteLength(body) + 10}-` } });
    expect(beyond.status).toBe(416);
    const head = await fetch(`${gateway.url}${entryScript}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  });

  it('leaves the API alone: unknown API paths and unknown assets keep their JSON 404', async () => {
    for (const path of ['/v1/nothing-here', '/api/nothing-here', '/assets/missing.js', '/not-a-page']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toBeTruthy();
    }
    const models = await fetch(`${gateway.url}/v1/models`);
    expect(models.status).toBe(401);
  });
});
