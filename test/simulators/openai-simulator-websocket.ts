// The Responses API's WebSocket mode of the OpenAI simulator, as OpenAI serves it: `GET /v1/responses` with
// Upgrade (Authorization: Bearer, `OpenAI-Beta: responses_websockets=…`), then `{"type":"response.create",
// …body without stream}` messages answered one at a time, each event of the answer one text frame; a
// refusal is one `{"type":"error","status":…,"error":{…}}` event and the socket stays open.
// Each turn is served by the simulator's own POST /v1/responses (stream: true), so every answer, script
// step and recorded request of the HTTP endpoint holds here too; those POSTs carry `x-simulator-transport:
// websocket`, which tells a turn that came over a socket from one that came as a POST.
// `webSocket` counts upgrades, refusals, turns and the sockets open now, and takes faults: `refuse` (answer
// upgrades with 400, as a server without the mode), `dieAfterEvents` (for the next turns, one entry each:
// drop the socket after that many events of the answer, 0 = before any).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ResponsesWebSocketControl {
  /** Upgrades accepted so far. */
  upgrades: number;
  /** Upgrades refused (bad key or `refuse`). */
  refused: number;
  /** response.create messages answered (or cut), over every socket. */
  turns: number;
  /** Sockets open right now. */
  open: number;
  /** The headers of each accepted upgrade. */
  handshakes: IncomingHttpHeaders[];
  /** Refuse every upgrade with HTTP 400, as an OpenAI-compatible server without the mode. */
  refuse: boolean;
  /** For the next turns, one each: drop the socket after this many events of the answer (0: before any). */
  dieAfterEvents: number[];
}

export function newWebSocketControl(): ResponsesWebSocketControl {
  return { upgrades: 0, refused: 0, turns: 0, open: 0, handshakes: [], refuse: false, dieAfterEvents: [] };
}

/** The upgrade handler: `origin` is the simulator's own http(s)://host:port, where each turn is POSTed. */
export function responsesWebSocket(control: ResponsesWebSocketControl, apiKey: string, origin: () => string): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const wss = new WebSocketServer({ noServer: true });
  return (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    const refusal = path !== '/v1/responses' ? 404 : request.headers.authorization !== `Bearer ${apiKey}` ? 401 : control.refuse ? 400 : 0;
    if (refusal !== 0) {
      control.refused++;
      const body = JSON.stringify({ error: { message: refusal === 401 ? 'Incorrect API key provided.' : 'WebSocket mode is not supported here.', type: 'invalid_request_error', param: null, code: null } });
      socket.end(`HTTP/1.1 ${refusal} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      control.upgrades++;
      control.open++;
      control.handshakes.push(request.headers);
      ws.once('close', () => control.open--);
      let queue = Promise.resolve();
      ws.on('message', (data) => {
        queue = queue.then(() => turn(ws, String(data))).catch(() => ws.terminate());
      });
    });
  };

  async function turn(ws: WebSocket, text: string): Promise<void> {
    if (ws.readyState !== ws.OPEN) return;
    control.turns++;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return sendError(ws, 400, 'Invalid JSON.');
    }
    const { type, ...body } = message;
    if (type !== 'response.create') return sendError(ws, 400, `Unknown message type '${String(type)}'.`);
    const dieAfter = control.dieAfterEvents.shift();
    if (dieAfter === 0) return void ws.terminate();
    const abort = new AbortController();
    const onClose = () => abort.abort();
    ws.once('close', onClose);
    try {
      await answerTurn(ws, body, dieAfter, abort);
    } finally {
      ws.off('close', onClose);
    }
  }

  async function answerTurn(ws: WebSocket, body: Record<string, unknown>, dieAfter: number | undefined, abort: AbortController): Promise<void> {
    const answer = await fetch(`${origin()}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'x-simulator-transport': 'websocket' },
      body: JSON.stringify({ ...body, stream: true }),
      signal: abort.signal,
    });
    if (!answer.ok) {
      const refused = await answer.json().catch(() => ({})) as { error?: unknown };
      return void ws.send(JSON.stringify({ type: 'error', status: answer.status, error: refused.error ?? null }));
    }
    let sent = 0;
    let pending = '';
    const decoder = new TextDecoder();
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf('\n\n');
      while (end >= 0) {
        const data = pending.slice(0, end).split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
        pending = pending.slice(end + 2);
        end = pending.indexOf('\n\n');
        if (data === '' || data === '[DONE]') continue;
        if (dieAfter !== undefined && sent >= dieAfter) {
          abort.abort();
          return void ws.terminate();
        }
        if (ws.readyState !== ws.OPEN) return;
        ws.send(data);
        sent++;
      }
    }
  }
}

function sendError(ws: WebSocket, status: number, message: string): void {
  ws.send(JSON.stringify({ type: 'error', status, error: { type: 'invalid_request_error', code: null, message, param: null } }));
}
