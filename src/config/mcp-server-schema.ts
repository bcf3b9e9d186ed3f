// An upstream MCP server as the config file's `mcp_servers:` and the admin API declare it (issue 32).
// Human units here (USD per call); src/mcp/mcp-server-rows.ts turns it into a row (micro-USD, the
// credential encrypted).
import { z } from 'zod';
import { hasAtMostDecimals, MAX_AMOUNT_USD } from '../metering/money-bounds.ts';

/**
 * Lower-case letters, digits and single hyphens: the name prefixes the server's tools as `name__tool`,
 * so it may not hold the `__` separator, and it is a path segment of `/mcp/{name}`.
 */
export const MCP_SERVER_NAME = /^[a-z0-9](?:-?[a-z0-9])*$/;
const NUL_FREE = (value: string) => !value.includes('\u0000');

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'not an HTTP header name');
const headerValue = z.string().min(1).max(8_192).refine((value) => !/[\r\n\u0000]/.test(value), 'must not contain line breaks');

/** OAuth client credentials: the SDK discovers the token endpoint from the server's protected-resource metadata. */
const mcpOAuthSchema = z.object({
  client_id: z.string().min(1).max(500).refine(NUL_FREE),
  client_secret: z.string().min(1).max(2_000).refine(NUL_FREE),
  scope: z.string().max(1_000).refine(NUL_FREE).optional(),
  /** The authorization server's issuer URL: the client secret is sent to that server only (else to whichever the MCP server names). */
  issuer: z.url({ protocol: /^https?$/ }).max(2_000).optional(),
}).strict();

const mcpServerObjectSchema = z.object({
  name: z.string().min(1).max(64).regex(MCP_SERVER_NAME, 'lower-case letters, digits and single hyphens (it prefixes tool names as name__tool)'),
  url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://tools.example.com/mcp' }).max(2_000),
  /** streamable-http: the current specification; sse: the older HTTP+SSE transport. */
  transport: z.enum(['streamable-http', 'sse']).default('streamable-http'),
  /** Headers sent on every upstream request (the upstream's own credential); never shown to users. */
  headers: z.record(headerName, headerValue).refine((headers) => Object.keys(headers).length <= 20, 'at most 20 headers').optional(),
  oauth: mcpOAuthSchema.optional(),
  groups: z.array(z.string().trim().min(1).max(128)).min(1).max(100).default(['default']),
  enabled: z.boolean().default(true),
  /** USD charged to the caller's wallet per tool call (times the group's ratio); 0 or absent: free. */
  // Charged in whole micro-USD: a finer price would be rounded, so it is refused (issue 31: no silent rounding).
  price_per_call: z.number().finite().nonnegative().max(MAX_AMOUNT_USD).refine((usd) => hasAtMostDecimals(usd, 6), 'must be exact to a micro-dollar (at most 6 decimals)').optional(),
  /** A tool call (or a list) with no answer after this long fails with a clean MCP error. */
  timeout_ms: z.number().int().min(100).max(600_000).optional(),
  /** Tool calls per minute this server accepts from the gateway, over every key and instance; absent: no limit. */
  rpm_limit: z.number().int().min(1).max(1_000_000).optional(),
  /** Keep each call's arguments and result (secrets redacted) beside its log row. */
  log_payloads: z.boolean().optional(),
  /** The URL may resolve to a private, loopback or link-local address (refused otherwise). */
  allow_private_network: z.boolean().optional(),
}).strict();

export const mcpServerSchema = mcpServerObjectSchema.refine((server) => !(server.headers && server.oauth), { message: 'give headers or oauth, not both', path: ['oauth'] });

export type McpServerConfig = z.infer<typeof mcpServerSchema>;

/** A key's MCP tool allowlist entry: `server__tool`, or `server__*` for every tool of a server. */
export const mcpToolEntry = z.string().min(3).max(300).regex(/^[a-z0-9](?:-?[a-z0-9])*__(?:\*|[^\s\u0000]+)$/, 'a prefixed tool name such as files__read_file, or files__* for every tool of a server');

/** An admin API edit: any field but the name; headers or oauth replace the credential, null clears it. */
export const mcpServerPatchSchema = mcpServerObjectSchema.omit({ name: true }).partial().extend({
  // Without the creation defaults: a field left out of an edit stays as it is.
  transport: z.enum(['streamable-http', 'sse']).optional(),
  groups: z.array(z.string().trim().min(1).max(128)).min(1).max(100).optional(),
  enabled: z.boolean().optional(),
  headers: mcpServerObjectSchema.shape.headers.unwrap().nullable().optional(),
  oauth: mcpOAuthSchema.nullable().optional(),
  timeout_ms: z.number().int().min(100).max(600_000).nullable().optional(),
  rpm_limit: z.number().int().min(1).max(1_000_000).nullable().optional(),
}).strict().refine((patch) => !(patch.headers && patch.oauth), { message: 'give headers or oauth, not both', path: ['oauth'] });
