// Attacker's review of the x-gateway-warnings and x-gateway-overhead-ms headers over the real wire: what
// the client writes (a server tool's type, a tool's name) ends up in a warning; with CR/LF or characters
// past ASCII it must neither split the header (inject another) nor make Node refuse to write it (a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from 'node:net';
import { testKey } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';

const KEY = testKey('warningsattack');
let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'mallory', balance: 100 }, key: { name: 'agent', key: KEY } });
});

afterAll(async () => {
  await families?.close();
});

/** The raw response head, as bytes on the socket: an injected header line would show here. */
async function rawHead(path: string, body: unknown): Promise<string> {
  const url = new URL(families.gateway.url);
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on('error', reject);
    socket.write(`POST ${path} HTTP/1.1\r\nhost: ${url.host}\r\nx-api-key: ${KEY}\r\nanthropic-version: 2023-06-01\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\nconnection: close\r\n\r\n`);
    socket.write(payload);
  });
}

describe('x-gateway-warnings', () => {
  it('carries a hostile server-tool type as one printable ASCII line, never a second header', async () => {
    for (const stream of [false, true]) {
      const head = await rawHead('/v1/messages', {
        model: 'gpt-up', max_tokens: 50, stream,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [
          { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: {} } },
          { type: 'web_search_20250305', name: 'wéb\r\nx-injected: yes\u2028€' },
          { type: 'code_execution_20250825\r\nx-injected: yes', name: 'code_execution' },
        ],
      });
      const status = Number(head.split(' ')[1]);
      expect(status, head).toBe(200);
      const lines = head.split('\r\n');
      expect(lines.some((line) => /^x-injected:/i.test(line)), head).toBe(false);
      for (const line of lines) expect(line, line).toMatch(/^[\x20-\x7e\t]*$/);
      // The CR/LF became '?' inside the one warnings line.
      expect(lines.find((line) => /^x-gateway-warnings:/i.test(line)), head).toContain('code_execution_20250825??x-injected: yes dropped');
      const overhead = lines.find((line) => /^x-gateway-overhead-ms:/i.test(line));
      if (overhead) expect(overhead).toMatch(/^x-gateway-overhead-ms: \d+(\.\d+)?$/i);
    }
  });
});
