// The MCP SDK, imported on the first MCP request and cached: a gateway that never serves /mcp never loads it
// (nor hono, ajv and the transports it brings), as the architecture asks of optional features.
type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
type StreamableClientModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
type SseClientModule = typeof import('@modelcontextprotocol/sdk/client/sse.js');
type AuthExtensionsModule = typeof import('@modelcontextprotocol/sdk/client/auth-extensions.js');
type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js');
type StreamableServerModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

interface McpSdk {
  Client: ClientModule['Client'];
  StreamableHTTPClientTransport: StreamableClientModule['StreamableHTTPClientTransport'];
  SSEClientTransport: SseClientModule['SSEClientTransport'];
  ClientCredentialsProvider: AuthExtensionsModule['ClientCredentialsProvider'];
  Server: ServerModule['Server'];
  StreamableHTTPServerTransport: StreamableServerModule['StreamableHTTPServerTransport'];
  types: TypesModule;
}

let loading: Promise<McpSdk> | null = null;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    const [client, streamable, sse, auth, server, streamableServer, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/client/auth-extensions.js'),
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Client: client.Client,
      StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      ClientCredentialsProvider: auth.ClientCredentialsProvider,
      Server: server.Server,
      StreamableHTTPServerTransport: streamableServer.StreamableHTTPServerTransport,
      types,
    };
  })();
  return loading;
}
