// Raw HTTP/1.1 over a socket, for requests no client library will send (malformed request lines, CONNECT,
// odd Expect headers, oversized headers) and for reading exactly what the gateway answers.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the socket was closed without any answer. */
  dropped: boolean;
}

/** Sends `request` as is and reads until the server closes or `timeoutMs` passes. */
export function rawRequest(url: string, request: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One complete answer is enough: stop once its declared length has arrived.
      const answer = parseAnswer(Buffer.concat(chunks).toString('utf8'));
      const length = Number(answer.headers['content-length']);
      if (answer.status > 0 && Number.isFinite(length) && Buffer.byteLength(answer.body) >= length) finish();
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.write(request);
  });
}

function parseAnswer(text: string): RawAnswer {
  // Interim answers (100 Continue) precede the real one.
  while (/^HTTP\/1\.1 1\d\d /.test(text) && text.includes('\r\n\r\n')) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  if (text.length === 0) return { status: 0, headers: {}, body: '', dropped: true };
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: split < 0 ? '' : text.slice(split + 4), dropped: false };
}
