// The soak benchmark's failing upstream: every request fails, in turn one of three ways: a 500 with an
// OpenAI error body, a hang-up without any answer, and (for streams) a stream cut after two events.
// Prints its URL when ready.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let turn = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const mode = turn++ % 3;
    const stream = Buffer.concat(chunks).includes('"stream":true');
    if (mode === 1) {
      request.socket.destroy();
      return;
    }
    if (mode === 2 && stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (content: string) => `data: ${JSON.stringify({ id: 'chatcmpl-faulty', object: 'chat.completion.chunk', created: 1, model: 'faulty', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      response.write(chunk('Hello from the OpenAI'));
      response.write(chunk(' simulator'));
      setTimeout(() => response.destroy(), 5);
      return;
    }
    const body = JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
    response.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
