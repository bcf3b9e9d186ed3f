// Request bodies gathered into one buffer that grows by doubling, never beyond what the body can be (its
// declared length, or the body limit). Keeping each `data` chunk instead holds a Buffer object per chunk: a
// client sending its body one byte at a time made 500 kB of body hold ~105 MB of heap
// (test/http/relay-lane-edges.test.ts). Used by the lean lane (relay-lane.ts), Fastify's JSON parser
// (json-body.ts) and Gemini's GET bodies.
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge, invalidRequest } from '../gateway-errors.ts';

/** First allocation for a body whose length is not declared (chunked); doubled as it grows, up to the limit. */
const FIRST_BODY_CAPACITY = 16 * 1024;
const EMPTY_BODY: Buffer = Buffer.alloc(0);

/**
 * A body as it arrives: one buffer that grows by doubling (so copying stays linear), never beyond
 * `maxCapacity` (the declared length, or the limit); the first allocation is the declared length when it is
 * small, which is the whole body in one go. Each chunk is copied out of the socket's read buffers, which a
 * kept view would pin for the whole call.
 */
export class BodyBuffer {
  private buffer: Buffer = EMPTY_BODY;
  private received = 0;
  private readonly limit: number;
  private readonly maxCapacity: number;

  constructor(limit: number, maxCapacity: number) {
    this.limit = limit;
    this.maxCapacity = maxCapacity;
  }

  /** Bytes received so far. */
  get length(): number {
    return this.received;
  }

  /** Adds a chunk; false (and nothing kept) when the body would pass the limit. */
  append(chunk: Buffer): boolean {
    const total = this.received + chunk.length;
    if (total > this.limit) return false;
    if (total > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxCapacity, Math.max(total, this.buffer.length * 2, FIRST_BODY_CAPACITY)));
      this.buffer.copy(grown, 0, 0, this.received);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.received);
    this.received = total;
    return true;
  }

  /** The body received, once: the buffer is let go. */
  take(): Buffer {
    const bytes = this.received === this.buffer.length ? this.buffer : this.buffer.subarray(0, this.received);
    this.buffer = EMPTY_BODY;
    return bytes;
  }
}

/**
 * The whole body of `request`, refused with 413 beyond `limit` (declared or received) and with 400 when it
 * is not the declared length. Rejects when the client goes away mid-body.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = request.headers['content-length'];
  const length = declared === undefined ? null : Number(declared);
  if (length !== null && length > limit) return Promise.reject(bodyTooLarge(limit));
  const body = new BodyBuffer(limit, length === null ? limit : length);
  return new Promise<Buffer>((resolve, reject) => {
    const stop = () => {
      request.removeListener('data', onData);
      request.removeListener('end', onEnd);
      request.removeListener('error', onError);
      request.removeListener('aborted', onAborted);
    };
    const fail = (error: Error) => {
      stop();
      // The rest of the body is not wanted: let it drain instead of pausing the socket with it unread.
      request.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (!body.append(chunk)) fail(bodyTooLarge(limit));
    };
    const onEnd = () => {
      stop();
      if (length !== null && body.length !== length) return reject(invalidRequest('The Content-Length header does not match the body.'));
      resolve(body.take());
    };
    const onError = (error: Error) => fail(invalidRequest(error.message));
    const onAborted = () => fail(invalidRequest('The client closed the connection before the body ended.'));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onAborted);
  });
}
