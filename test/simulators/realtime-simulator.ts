// A simulator of OpenAI's Realtime API over WebSocket: session.created on connect, session.updated for
// session.update, and for response.create a text response in deltas ending with response.done and usage.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface RealtimeSimulator {
  url: string;
  /** Every connection's request URL and headers, and whether it has closed. */
  connections: { url: string; headers: Record<string, string | string[] | undefined>; closed: boolean; received: unknown[] }[];
  close(): Promise<void>;
}

export async function startRealtimeSimulator(options: { apiKey?: string } = {}): Promise<RealtimeSimulator> {
  const apiKey = options.apiKey ?? 'sk-sim-realtime';
  const server = createServer((_request, response) => response.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true });
  const connections: RealtimeSimulator['connections'] = [];
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (request, socket, head) => {
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\r\n{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const record = { url: request.url ?? '', headers: request.headers, closed: false, received: [] as unknown[] };
      connections.push(record);
      sockets.add(ws);
      const model = new URL(request.url ?? '/', 'http://sim').searchParams.get('model');
      const send = (event: object) => ws.send(JSON.stringify({ event_id: `evt_${Math.random().toString(36).slice(2)}`, ...event }));
      send({ type: 'session.created', session: { id: 'sess_sim', object: 'realtime.session', model, modalities: ['text'] } });
      ws.on('message', (data) => {
        const event = JSON.parse(data.toString()) as { type: string; response?: { instructions?: string } };
        record.received.push(event);
        if (event.type === 'session.update') send({ type: 'session.updated', session: { id: 'sess_sim', model } });
        if (event.type === 'response.create') {
          const text = 'Hello from the realtime simulator';
          send({ type: 'response.created', response: { id: 'resp_sim', object: 'realtime.response', status: 'in_progress', output: [] } });
          for (const delta of text.split(/(?<= )/)) send({ type: 'response.output_text.delta', response_id: 'resp_sim', item_id: 'item_sim', output_index: 0, content_index: 0, delta });
          send({ type: 'response.done', response: { id: 'resp_sim', object: 'realtime.response', status: 'completed', output: [], usage: { total_tokens: 17, input_tokens: 11, output_tokens: 6, input_token_details: { cached_tokens: 0, text_tokens: 11, audio_tokens: 0 }, output_token_details: { text_tokens: 6, audio_tokens: 0 } } } });
        }
      });
      ws.on('close', () => {
        record.closed = true;
        sockets.delete(ws);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.terminate();
      wss.close();
      server.close(() => resolve());
    }),
  };
}
