// An upstream MCP server that talks back during a call, for the gateway's relay tests: Streamable HTTP with
// sessions (its requests to the client need the client's answer POSTed to the same session), no credential.
// - countdown: sends three progress notifications (when the caller asked for progress), then answers;
// - ask_client: sends the client a sampling, an elicitation and a roots request, and answers with what
//   each got back (the gateway refuses them; the tool reports the refusals).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface ChattyMcpServer {
  url: string;
  /** The progress tokens the server received with countdown calls. */
  progressTokens: unknown[];
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function build(progressTokens: unknown[]): McpServer {
  const mcp = new McpServer({ name: 'chatty', version: '1.0.0' });
  mcp.registerTool('countdown', { description: 'Counts down, reporting progress' }, async (extra) => {
    const token = extra._meta?.progressToken;
    progressTokens.push(token);
    for (let step = 1; step <= 3; step++) {
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: 3, message: `step ${step} of 3` } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { content: [{ type: 'text', text: 'lift-off' }] };
  });
  mcp.registerTool('ask_client', { description: 'Asks the client for a completion, an answer and its roots' }, async (extra) => {
    const asks = [
      { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 } },
      { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
      { method: 'roots/list', params: {} },
    ];
    const outcomes: string[] = [];
    for (const ask of asks) {
      try {
        await extra.sendRequest(ask as never, z.object({}).passthrough() as never, { timeout: 5_000 });
        outcomes.push(`${ask.method}: answered`);
      } catch (error) {
        outcomes.push(`${ask.method}: ${(error as { code?: number }).code} ${(error as Error).message}`);
      }
    }
    return { content: [{ type: 'text', text: outcomes.join('\n') }] };
  });
  return mcp;
}

export async function startChattyServer(): Promise<ChattyMcpServer> {
  const progressTokens: unknown[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      if (typeof id === 'string') return void response.writeHead(404).end();
      const opened = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sessionId) => void transports.set(sessionId, opened) });
      opened.onclose = () => {
        if (opened.sessionId) transports.delete(opened.sessionId);
      };
      await build(progressTokens).connect(opened);
      transport = opened;
    }
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    progressTokens,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
