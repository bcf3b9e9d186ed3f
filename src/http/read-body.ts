// Request bodies gathered into one buffer that grows by doubling, never beyond what the body can be (its
// declared length, or the body limit). Keeping each `data` chunk instead holds a Buffer object per chunk: a
// client sending its body one byte at a time made 500 kB of body hold ~105 MB of heap
// (test/http/relay-lane-edges.test.ts). Used by the lean lane (relay-lane.ts), Fastify's JSON parser
// (json-body.ts) and Gemini's GET bodies.
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge, invalidRequest } from '../gateway-errors.ts';

/** First allocation for a body whose length is not declared (chunked); doubled as it grows, up to the limit. */
const FIRST_BODY_CAPACITY = 16 * 1024;
export const EMPTY_BODY: Buffer = Buffer.alloc(0);

/**
 * Room for `needed` bytes, keeping the first `used` bytes of `buffer`: doubling (so copying stays linear),
 * never beyond `maxCapacity`. The first allocation is the declared length when it is small: the whole body
 * in one go.
 */
export function grownBodyBuffer(buffer: Buffer, used: number, needed: number, maxCapacity: number): Buffer {
  const capacity = Math.min(maxCapacity, Math.max(needed, buffer.length * 2, FIRST_BODY_CAPACITY));
  const grown = Buffer.allocUnsafe(capacity);
  buffer.copy(grown, 0, 0, used);
  return grown;
}

/**
 * The whole body of `request`, refused with 413 beyond `limit` (declared or received) and with 400 when it
 * is not the declared length. Rejects when the client goes away mid-body.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = request.headers['content-length'];
  const length = declared === undefined ? null : Number(declared);
  if (length !== null && length > limit) return Promise.reject(bodyTooLarge(limit));
  const maxCapacity = length === null ? limit : length;
  let buffer: Buffer = EMPTY_BODY;
  let received = 0;
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
      const total = received + chunk.length;
      if (total > limit) return fail(bodyTooLarge(limit));
      if (total > buffer.length) buffer = grownBodyBuffer(buffer, received, total, maxCapacity);
      // Copied out of the socket's read buffers, which a kept view would pin for the whole call.
      chunk.copy(buffer, received);
      received = total;
    };
    const onEnd = () => {
      stop();
      if (length !== null && received !== length) return reject(invalidRequest('The Content-Length header does not match the body.'));
      resolve(received === buffer.length ? buffer : buffer.subarray(0, received));
    };
    const onError = (error: Error) => fail(invalidRequest(error.message));
    const onAborted = () => fail(invalidRequest('The client closed the connection before the body ended.'));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onAborted);
  });
}
