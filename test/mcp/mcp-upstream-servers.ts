// Two upstream MCP servers built with the SDK, on real ports, for the gateway's MCP tests:
// - "files" speaks Streamable HTTP (stateless) and refuses any request without its own credential
//   (Authorization: Bearer <credential>); its tools echo, hang until cancelled, and crash (the server cuts
//   every connection mid-call, as a dying process does). It has a resource and a prompt too.
// - "weather" speaks the older HTTP+SSE transport, without a credential.
// Each records the headers it received, so a test can check what the gateway sent upstream.
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

export interface UpstreamMcpServer {
  url: string;
  /** Headers of every request received, in order. */
  headers: IncomingMessage['headers'][];
  /** Tool calls received (name and arguments). */
  calls: { name: string; arguments: unknown }[];
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** OAuth client credentials the files server may require instead: it then issues `credential` as its token. */
interface FilesServerOAuth {
  clientId: string;
  clientSecret: string;
}

export async function startFilesServer(credential: string, oauth?: FilesServerOAuth): Promise<UpstreamMcpServer & { tokenRequests: number }> {
  let tokenRequests = 0;
  let base = '';
  const headers: IncomingMessage['headers'][] = [];
  const calls: { name: string; arguments: unknown }[] = [];
  let http: HttpServer;
  const build = () => {
    const mcp = new McpServer({ name: 'files', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string(), api_key: z.string().optional() } }, async (args) => {
      calls.push({ name: 'echo', arguments: args });
      return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
    });
    mcp.registerTool('read_note', { description: 'Reads the note' }, async () => {
      calls.push({ name: 'read_note', arguments: {} });
      return { content: [{ type: 'text', text: 'The note says: blue whale' }] };
    });
    mcp.registerTool('hang', { description: 'Never answers' }, async (extra) => {
      calls.push({ name: 'hang', arguments: {} });
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    mcp.registerTool('crash', { description: 'The server dies mid-call' }, async () => {
      calls.push({ name: 'crash', arguments: {} });
      // Every open connection is cut while the call is in flight, as when the process dies.
      setTimeout(() => http.closeAllConnections(), 100);
      return new Promise(() => {});
    });
    mcp.registerResource('note', 'note://hello', { description: 'A note', mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'hello from files' }] }));
    mcp.registerPrompt('greet', { description: 'Greets someone', argsSchema: { who: z.string() } }, ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}` } }] }));
    return mcp;
  };
  http = createServer(async (request, response) => {
    headers.push(request.headers);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    // The OAuth side (RFC 9728 protected-resource metadata, RFC 8414 server metadata, a client-credentials token endpoint).
    if (oauth && path.startsWith('/.well-known/oauth-protected-resource')) {
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
    }
    if (oauth && path.startsWith('/.well-known/oauth-authorization-server')) {
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'], token_endpoint_auth_methods_supported: ['client_secret_basic'],
      }));
    }
    if (oauth && path === '/token' && request.method === 'POST') {
      tokenRequests++;
      const form = new URLSearchParams(await new Promise<string>((resolve) => { let text = ''; request.on('data', (chunk) => (text += chunk)); request.on('end', () => resolve(text)); }));
      const [id, secret] = Buffer.from(String(request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map(decodeURIComponent);
      if (form.get('grant_type') !== 'client_credentials' || id !== oauth.clientId || secret !== oauth.clientSecret) {
        return void response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
      }
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: credential, token_type: 'Bearer', expires_in: 3600 }));
    }
    if (request.headers.authorization !== `Bearer ${credential}`) {
      response.writeHead(401, { 'content-type': 'application/json', ...(oauth ? { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` } : {}) })
        .end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    // Stateless: a server and a transport per request, as the SDK's stateless example does.
    const mcp = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  base = await listen(http);
  return { url: `${base}/mcp`, headers, calls, close: () => closeServer(http), get tokenRequests() { return tokenRequests; } };
}

export async function startWeatherSseServer(): Promise<UpstreamMcpServer> {
  const headers: IncomingMessage['headers'][] = [];
  const calls: { name: string; arguments: unknown }[] = [];
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer(async (request, response) => {
    headers.push(request.headers);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response);
      transports.set(transport.sessionId, transport);
      response.on('close', () => transports.delete(transport.sessionId));
      const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
      mcp.registerTool('forecast', { description: 'The forecast for a city', inputSchema: { city: z.string() } }, async ({ city }) => {
        calls.push({ name: 'forecast', arguments: { city } });
        return { content: [{ type: 'text', text: `Sunny in ${city}` }] };
      });
      await mcp.connect(transport);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return void response.writeHead(404).end('no session');
      await transport.handlePostMessage(request, response, await readJson(request));
      return;
    }
    response.writeHead(404).end();
  });
  const url = await listen(http);
  return { url: `${url}/sse`, headers, calls, close: () => closeServer(http) };
}
