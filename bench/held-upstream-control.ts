// Calls to the held-stream upstream's own endpoints (bench/serve-held-stream-upstream.ts: GET /held,
// POST /release) in the protocol it speaks: fetch over HTTP/1.1, or node:http2 when it was started with
// `--h2c` (it then speaks only HTTP/2, with prior knowledge, and fetch cannot reach it).
import { connect } from 'node:http2';

export async function askHeldUpstream(upstreamUrl: string, method: 'GET' | 'POST', path: '/held' | '/release', h2c: boolean): Promise<string> {
  if (!h2c) return (await fetch(`${upstreamUrl}${path}`, { method })).text();
  const session = connect(upstreamUrl);
  try {
    const stream = session.request({ ':method': method, ':path': path });
    stream.end();
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text;
  } finally {
    session.close();
  }
}
