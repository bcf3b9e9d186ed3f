// Gateway errors inside an MCP session become JSON-RPC errors: a code an MCP client understands, the
// gateway's message, and in `data` what the HTTP answers carry (gateway code, kind, client code, status).
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, gatewayError } from '../gateway-errors.ts';
import { McpUpstreamRpcError } from './mcp-upstream-client.ts';

/** What a JSON-RPC error (in a session, or as the body of an HTTP refusal) carries for a gateway error. */
export function jsonRpcErrorOf(error: GatewayError): { code: number; message: string; data: Record<string, unknown> } {
  const code = error.status === 504 ? ErrorCode.RequestTimeout
    : error.gatewayCode === 'GW_ERR_MCP_TOOL_NOT_FOUND' || error.status === 400 ? ErrorCode.InvalidParams
      : error.status === 404 ? ErrorCode.InvalidRequest
        : error.status === 500 ? ErrorCode.InternalError
          : -32000;
  const retryAfter = error.headers['retry-after'];
  return {
    code,
    message: error.message,
    data: { gateway_code: error.gatewayCode, type: error.kind, code: error.code, status: error.status, ...(retryAfter ? { retry_after_seconds: Number(retryAfter) } : {}) },
  };
}

export function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof McpUpstreamRpcError) return new McpError(error.code, error.message, error.data);
  const gateway = error instanceof GatewayError ? error : gatewayError('GW_ERR_INTERNAL', { message: 'The gateway failed while relaying this MCP request; it has been logged.', code: 'internal_error', cause: error });
  const rpc = jsonRpcErrorOf(gateway);
  return new McpError(rpc.code, rpc.message, rpc.data);
}
