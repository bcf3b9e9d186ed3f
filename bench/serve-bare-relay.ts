// The floor of a two-hop relay on this stack: node:http in, undici dispatch out, nothing else (no keys,
// routing, validation or metering). Comparing it with the gateway separates what the gateway's own work
// costs from what the second HTTP hop costs. Usage: node bench/serve-bare-relay.ts UPSTREAM_URL
import { createServer } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { BENCH_UPSTREAM_KEY } from './bench-constants.ts';

const upstream = new URL(process.argv[2] ?? '');
const agent = new Agent({ connections: 128 });

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const sent: Buffer[] = [];
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, headers) {
        res.statusCode = statusCode;
        const type = headers['content-type'];
        if (type) res.setHeader('content-type', type);
      },
      onResponseData(_controller, chunk) {
        if (String(res.getHeader('content-type')).startsWith('text/event-stream')) res.write(chunk);
        else sent.push(chunk);
      },
      onResponseEnd() {
        res.end(sent.length ? Buffer.concat(sent) : undefined);
      },
      onResponseError(_controller, error) {
        res.statusCode = 502;
        res.end(String(error));
      },
    };
    agent.dispatch({
      origin: upstream.origin,
      path: req.url ?? '/',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_UPSTREAM_KEY}` },
      body: Buffer.concat(parts),
    }, handler);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
