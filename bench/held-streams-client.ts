// The client side of the held-stream tools (bench/held-streams-heap.ts, held-streams-memory.ts): raw
// sockets that each open one streamed chat call through the gateway and wait for the upstream's first event
// (bench/serve-held-stream-upstream.ts holds every stream after it).
import { connect, type Socket } from 'node:net';
import { BENCH_KEY } from './bench-constants.ts';

export interface HeldStream {
  socket: Socket;
  /** Settles when the stream's socket has closed. */
  ended: Promise<void>;
}

export function heldStreamClient(gatewayUrl: string): { openMany(count: number): Promise<HeldStream[]> } {
  const gateway = new URL(gatewayUrl);
  const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hold' }] });
  const request = `POST /v1/chat/completions HTTP/1.1\r\nHost: ${gateway.host}\r\nAuthorization: Bearer ${BENCH_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const open = (): Promise<HeldStream> => {
    const socket = connect(Number(gateway.port), gateway.hostname);
    let first!: () => void;
    const firstEvent = new Promise<void>((resolve) => (first = resolve));
    const ended = new Promise<void>((resolve) => socket.once('close', () => { first(); resolve(); }));
    socket.on('data', (data: Buffer) => { if (data.includes(' e0')) first(); });
    socket.write(request);
    return firstEvent.then(() => ({ socket, ended }));
  };
  return {
    /** Opens `count` streams, 100 at a time, each resolved once its first event arrived. */
    async openMany(count: number) {
      const list: HeldStream[] = [];
      for (let i = 0; i < count; i += 100) list.push(...await Promise.all(Array.from({ length: Math.min(100, count - i) }, open)));
      return list;
    },
  };
}
