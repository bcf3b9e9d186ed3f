// An OpenAI-compatible upstream for the streams-at-scale phase (bench/streams-scale.ts): every streamed chat
// completion gets its first event at once and is then held open, idle, until `POST /release`; then each
// held stream gets the rest of its numbered events, a usage chunk and [DONE]. So the benchmark can hold
// thousands of streams open through the gateway at one moment, measure memory, and check every event
// arrived, in order. `GET /held` answers the number of streams held. Prints its URL when ready.
// With `--h2c` it speaks HTTP/2 without TLS (prior knowledge) instead, for a gateway channel with
// `http2: true`: the gateway then carries 100 streams per upstream connection instead of one. node:http2's
// server sets no limit on concurrent streams (SETTINGS_MAX_CONCURRENT_STREAMS unset: 2³²−1), so the figure
// of 100 is undici's (the gateway's HTTP2_STREAMS_PER_CONNECTION), as against a real upstream's 100 to 256.
// (One port cannot serve both by sniffing the first bytes: node:http2 reads its socket natively and never
// sees bytes put back by unshift().)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createH2cServer } from 'node:http2';
import type { Socket } from 'node:net';
import { HELD_STREAM_EVENTS } from './bench-constants.ts';

type Response = ServerResponse;
const h2c = process.argv.includes('--h2c');

const held = new Set<Response>();

/** The event numbered `index`: its text is ` e<index>`, which the client checks for order. */
function chunk(index: number): string {
  return `data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":" e${index}"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`;
}

function finish(response: Response): void {
  let rest = '';
  for (let index = 1; index < HELD_STREAM_EVENTS; index++) rest += chunk(index);
  rest += 'data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n';
  rest += `data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":${HELD_STREAM_EVENTS},"total_tokens":${8 + HELD_STREAM_EVENTS}}}\n\n`;
  response.end(`${rest}data: [DONE]\n\n`);
}

function answer(request: IncomingMessage, response: Response): void {
  if (request.method === 'GET' && request.url === '/held') {
    response.end(String(held.size));
    return;
  }
  if (request.method === 'POST' && request.url === '/release') {
    const count = held.size;
    for (const stream of held) finish(stream);
    held.clear();
    response.end(String(count));
    return;
  }
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(chunk(0));
    held.add(response);
    response.on('close', () => held.delete(response));
  });
}

// The compatibility API's request and response have every member used here (method, url, writeHead, write, end).
const server = h2c ? createH2cServer(answer as never) : createServer(answer);
if (!h2c) (server as ReturnType<typeof createServer>).keepAliveTimeout = 120_000;
const sockets = new Set<Socket>();
server.on('connection', (socket: Socket) => {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => {
  for (const socket of sockets) socket.destroy();
  server.close(() => process.exit(0));
});
