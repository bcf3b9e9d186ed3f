// Small HTTP helpers shared by the simulators: body reading, JSON answers, SSE writing, sleeping.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stepShapesStream, type ScriptStep } from './simulator-script.ts';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function readBody(request: IncomingMessage): Promise<string> {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  for await (const chunk of request) {
    if (first === undefined) first = chunk as Buffer;
    else (more ??= [first]).push(chunk as Buffer);
  }
  if (more) return Buffer.concat(more).toString('utf8');
  return first === undefined ? '' : first.toString('utf8');
}

/** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
export function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, headers
    ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }
    : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

interface EventStreamFormat {
  /** Written after the events unless the script omits it; null when the format has none. */
  terminator: string | null;
  /** A complete SSE event whose data is not valid JSON (for `malformedChunkAt`). */
  malformed: string;
  contentType?: string;
}

/** Writes complete SSE events, honouring the stream fields of the script step (see simulator-script.ts). */
export async function sendEventStream(response: ServerResponse, step: Readonly<ScriptStep>, events: string[], format: EventStreamFormat): Promise<void> {
  // `connection` is an HTTP/1 header: an h2 answer may not carry it (node:http2 warns and drops it).
  const head = response.req.httpVersionMajor === 2
    ? { 'content-type': format.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' }
    : { 'content-type': format.contentType ?? 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };
  response.writeHead(200, step.headers ? { ...head, ...step.headers } : head);
  const terminator = format.terminator !== null && !step.omitTerminator ? format.terminator : '';
  if (!stepShapesStream(step)) {
    // The benchmark path: one write for the whole stream.
    response.end(events.join('') + terminator);
    return;
  }
  response.flushHeaders();
  if (step.firstChunkDelayMs) await sleep(step.firstChunkDelayMs);
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
    if (response.destroyed) return;
    if (step.cutStreamAfterChunks !== undefined && i >= step.cutStreamAfterChunks) {
      response.destroy();
      return;
    }
    if (step.stallAfterChunks !== undefined && i >= step.stallAfterChunks) return; // keep the socket open, say nothing
    if (step.malformedChunkAt === i) response.write(format.malformed);
    response.write(events[i]);
  }
  if (step.cutStreamAfterChunks !== undefined && step.cutStreamAfterChunks <= events.length) {
    response.destroy();
    return;
  }
  if (step.stallAfterChunks !== undefined && step.stallAfterChunks <= events.length) return;
  response.end(terminator);
}
