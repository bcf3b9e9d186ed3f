// An OpenAI-compatible upstream for the streams-at-scale phase (bench/streams-scale.ts): every streamed chat
// completion gets its first event at once and is then held open, idle, until `POST /release`; then each
// held stream gets the rest of its numbered events, a usage chunk and [DONE]. So the benchmark can hold
// thousands of streams open through the gateway at one moment, measure memory, and check every event
// arrived, in order. `GET /held` answers the number of streams held. Prints its URL when ready.
import { createServer, type ServerResponse } from 'node:http';
import { HELD_STREAM_EVENTS } from './bench-constants.ts';


const held = new Set<ServerResponse>();

/** The event numbered `index`: its text is ` e<index>`, which the client checks for order. */
function chunk(index: number): string {
  return `data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":" e${index}"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`;
}

function finish(response: ServerResponse): void {
  let rest = '';
  for (let index = 1; index < HELD_STREAM_EVENTS; index++) rest += chunk(index);
  rest += 'data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n';
  rest += `data: {"id":"chatcmpl-held","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":${HELD_STREAM_EVENTS},"total_tokens":${8 + HELD_STREAM_EVENTS}}}\n\n`;
  response.end(`${rest}data: [DONE]\n\n`);
}

const server = createServer((request, response) => {
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
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
