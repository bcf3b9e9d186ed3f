// The closed set of gateway error codes: each declared once, with its HTTP status, its kind (OpenAI's error
// `type`, which every other format maps from), the `code` values a client may see with it and what it
// means. An error is built from its code alone (gatewayError in gateway-errors.ts), which takes status and
// kind from here and accepts only the client codes declared here; test/errors/error-catalogue.test.ts
// checks the call sites and the README's error table against this list. The one status-to-kind mapping,
// for errors whose status comes from an upstream, is here as well.

/** The kind of problem, named after OpenAI's error `type` values, which the other formats map from. */
export type GatewayErrorKind =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'insufficient_quota'
  | 'upstream_error'
  | 'timeout_error'
  | 'overloaded_error'
  | 'server_error';

export interface DeclaredError {
  /** The HTTP status, or 'upstream' when the upstream's own status is passed on. */
  status: number | 'upstream';
  /** The kind, or 'by-status' when kindForStatus derives it from the status (or the upstream's envelope names one). */
  kind: GatewayErrorKind | 'by-status';
  /** The `code` values a client can see with it ('upstream' when it is the upstream's own). */
  clientCodes: readonly string[];
  meaning: string;
}

export const GATEWAY_ERRORS = {
  GW_ERR_INVALID_REQUEST: {
    status: 400, kind: 'invalid_request_error',
    clientCodes: ['missing_required_parameter', 'invalid_value', 'missing_header', 'unsupported_media_type', 'invalid_content_type', 'invalid_file_format', 'file_too_large', 'string_above_max_length', 'unsupported_for_model', 'unsupported_stream_format', 'invalid_image_url', 'image_url_forbidden', 'image_fetch_failed', 'image_too_large', 'unsupported_parameter', 'invalid_multipart', 'invalid_url', 'malformed_http', 'nesting_too_deep', 'group_not_available', 'invalid_code', 'invalid_password', 'invalid_token', 'too_many_keys', 'two_factor_already_enabled', 'two_factor_not_enabled', 'two_factor_not_set_up', 'amount_too_large', 'invalid_redemption_code', 'payments_not_configured', 'invalid_signature', 'unknown_group', 'unknown_model', 'passkey_not_registered', 'too_many_passkeys', 'invalid_invitation', 'too_many_invitations', 'too_many_organisations'],
    meaning: 'A missing or ill-typed field (named in `param`), or a feature the target format cannot express.',
  },
  GW_ERR_CONTEXT_LENGTH: { status: 400, kind: 'invalid_request_error', clientCodes: ['context_length_exceeded'], meaning: "A prompt (the gateway's estimate), or a strict model's prompt plus the output asked for, over the model's declared `context_window`; worded as the caller's own provider words it, so an agent's own overflow handling (compaction) starts." },
  GW_ERR_INVALID_JSON: { status: 400, kind: 'invalid_request_error', clientCodes: ['invalid_json'], meaning: 'The body is not valid JSON.' },
  GW_ERR_UNSUPPORTED_ENDPOINT: { status: 400, kind: 'invalid_request_error', clientCodes: ['unsupported_endpoint'], meaning: 'No channel of the model serves this endpoint.' },
  GW_ERR_BODY_TOO_LARGE: { status: 413, kind: 'request_too_large', clientCodes: ['request_too_large'], meaning: 'A body over BODY_LIMIT, or an upload over its limit.' },
  GW_ERR_MISSING_KEY: { status: 401, kind: 'authentication_error', clientCodes: ['missing_api_key'], meaning: 'No API key was sent.' },
  GW_ERR_INVALID_KEY: { status: 401, kind: 'authentication_error', clientCodes: ['invalid_api_key'], meaning: 'An unknown key, including an upstream provider\'s key.' },
  GW_ERR_EXPIRED_KEY: { status: 401, kind: 'authentication_error', clientCodes: ['expired_api_key'], meaning: 'The key is past its expiry.' },
  GW_ERR_DISABLED_KEY: { status: 401, kind: 'authentication_error', clientCodes: ['invalid_api_key'], meaning: 'The key has been disabled.' },
  GW_ERR_DISABLED_USER: { status: 403, kind: 'permission_error', clientCodes: ['account_disabled'], meaning: 'The account that owns the key is disabled.' },
  GW_ERR_IP_NOT_ALLOWED: { status: 403, kind: 'permission_error', clientCodes: ['ip_not_allowed'], meaning: 'The client address is outside the key\'s allowlist.' },
  GW_ERR_MODEL_NOT_ALLOWED: { status: 403, kind: 'permission_error', clientCodes: ['model_not_allowed'], meaning: 'The model is outside the key\'s list or group.' },
  GW_ERR_MODEL_PRICE_MISSING: { status: 403, kind: 'permission_error', clientCodes: ['model_price_missing'], meaning: 'The model has no price and is not marked free.' },
  GW_ERR_ADMIN_ONLY: { status: 403, kind: 'permission_error', clientCodes: ['admin_only'], meaning: 'An endpoint for administrators.' },
  GW_ERR_MODEL_NOT_FOUND: { status: 404, kind: 'invalid_request_error', clientCodes: ['model_not_found'], meaning: 'No channel serves the model.' },
  GW_ERR_ROUTE_NOT_FOUND: { status: 404, kind: 'invalid_request_error', clientCodes: ['unknown_url'], meaning: 'An unknown URL.' },
  GW_ERR_NOT_FOUND: { status: 404, kind: 'not_found_error', clientCodes: ['not_found'], meaning: 'An admin API object that does not exist.' },
  GW_ERR_INSUFFICIENT_QUOTA: { status: 429, kind: 'insufficient_quota', clientCodes: ['insufficient_quota'], meaning: 'The wallet or the key\'s quota cannot cover the call.' },
  GW_ERR_RATE_LIMITED: { status: 429, kind: 'rate_limit_error', clientCodes: ['rate_limit_exceeded'], meaning: 'A requests- or tokens-per-minute limit of the key or account.' },
  GW_ERR_MODEL_UNAVAILABLE: { status: 503, kind: 'overloaded_error', clientCodes: ['model_unavailable'], meaning: 'Every channel of the model is disabled.' },
  GW_ERR_NO_ROUTE: { status: 503, kind: 'overloaded_error', clientCodes: ['no_available_channel'], meaning: 'Every channel of the model failed or was skipped.' },
  GW_ERR_SHARED_STATE_UNAVAILABLE: { status: 503, kind: 'overloaded_error', clientCodes: ['service_unavailable'], meaning: 'Redis (quotas, wallets, rate limits) cannot be reached.' },
  GW_ERR_UPSTREAM_STATUS: { status: 'upstream', kind: 'by-status', clientCodes: ['upstream'], meaning: 'An upstream error passed on with its status and message (a refusal of the channel\'s own credentials becomes 502).' },
  GW_ERR_UPSTREAM_UNREACHABLE: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_unreachable'], meaning: 'No channel could be reached.' },
  GW_ERR_UPSTREAM_BAD_RESPONSE: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_bad_response'], meaning: 'An upstream answer the gateway could not read.' },
  GW_ERR_EMPTY_STREAM: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_empty_stream'], meaning: 'An upstream stream that ended without any event.' },
  GW_ERR_STREAM_CUT: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_stream_failed'], meaning: 'An upstream stream that failed midway (sent as an error event).' },
  GW_ERR_UPSTREAM_TIMEOUT: { status: 504, kind: 'timeout_error', clientCodes: ['upstream_timeout'], meaning: 'An upstream that did not answer in time.' },
  GW_ERR_INTERNAL: { status: 500, kind: 'server_error', clientCodes: ['internal_error'], meaning: 'A bug in the gateway; logged.' },
  // Bad input and slow clients (docs/failure-modes.md).
  GW_ERR_CLIENT_TIMEOUT: { status: 408, kind: 'timeout_error', clientCodes: ['request_timeout'], meaning: 'Headers or body not received within HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS.' },
  GW_ERR_METHOD_NOT_ALLOWED: { status: 405, kind: 'invalid_request_error', clientCodes: ['method_not_allowed'], meaning: 'CONNECT: the gateway is not a proxy.' },
  GW_ERR_URL_TOO_LONG: { status: 414, kind: 'invalid_request_error', clientCodes: ['uri_too_long'], meaning: 'A path segment, or a model id in the path, longer than the gateway accepts.' },
  GW_ERR_EXPECTATION_FAILED: { status: 417, kind: 'invalid_request_error', clientCodes: ['expectation_failed'], meaning: 'An Expect header other than 100-continue.' },
  GW_ERR_UPGRADE_REQUIRED: { status: 426, kind: 'invalid_request_error', clientCodes: ['upgrade_required'], meaning: 'A plain GET of /v1/realtime, which is a WebSocket.' },
  GW_ERR_HEADERS_TOO_LARGE: { status: 431, kind: 'invalid_request_error', clientCodes: ['request_header_fields_too_large'], meaning: 'Request headers over the server limit.' },
  GW_ERR_UPSTREAM_RESPONSE_TOO_LARGE: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_response_too_large'], meaning: 'A non-streamed upstream answer over UPSTREAM_BODY_LIMIT (not retried).' },
  // Metering writes.
  GW_ERR_METERING_BACKLOG: { status: 503, kind: 'overloaded_error', clientCodes: ['service_unavailable'], meaning: 'The database cannot keep up with usage logs and charges (METERING_QUEUE_LIMIT unwritten); Retry-After: 1.' },
  // Operations and response ownership.
  GW_ERR_SHUTTING_DOWN: { status: 503, kind: 'overloaded_error', clientCodes: ['service_unavailable'], meaning: 'A request arriving on an open connection while the gateway stops; Retry-After: 1 and the connection closed (another instance, or this one restarted, takes the retry).' },
  GW_ERR_PREVIOUS_RESPONSE_NOT_FOUND: { status: 404, kind: 'invalid_request_error', clientCodes: ['previous_response_not_found'], meaning: "A previous_response_id that is unknown or another user's (the same answer for both)." },
  GW_ERR_RESPONSE_NOT_FOUND: { status: 404, kind: 'invalid_request_error', clientCodes: ['response_not_found'], meaning: "GET/DELETE of a response id that is unknown or another user's." },
  GW_ERR_ITEM_NOT_FOUND: { status: 404, kind: 'invalid_request_error', clientCodes: ['item_not_found'], meaning: "An item_reference to an item that is unknown or another user's (the same answer for both)." },
  GW_ERR_RESPONSE_CHAIN_TOO_LONG: { status: 400, kind: 'invalid_request_error', clientCodes: ['response_chain_too_long'], meaning: 'A previous_response_id whose gateway-kept conversation is over the rebuild bounds.' },
  GW_ERR_RESPONSE_CHANNEL_UNAVAILABLE: { status: 503, kind: 'overloaded_error', clientCodes: ['channel_unavailable'], meaning: 'The channel that holds a stored response no longer serves.' },
  GW_ERR_UPSTREAM_CREDENTIALS: { status: 502, kind: 'upstream_error', clientCodes: ['upstream_credentials_refused'], meaning: "An upstream refused the channel's own credentials; the channel is disabled, nothing of the key is shown." },
  GW_ERR_KEY_DELETED: { status: 404, kind: 'not_found_error', clientCodes: ['not_found'], meaning: 'A change to a deleted key, which can never be enabled again.' },
  GW_ERR_KEY_NAME_TAKEN: { status: 409, kind: 'invalid_request_error', clientCodes: ['key_name_taken'], meaning: 'A key name its user already has.' },
  GW_ERR_CONFLICT: { status: 409, kind: 'invalid_request_error', clientCodes: ['conflict', 'email_in_use', 'group_in_use', 'group_required', 'key_name_taken', 'name_taken', 'last_admin', 'code_redeemed', 'code_revoked', 'slug_taken', 'last_owner', 'last_sign_in_method'], meaning: 'A change that conflicts with what exists (an address or a name in use, a group keys still use).' },
  // Accounts and the /api surface (issue 12).
  GW_ERR_NOT_SIGNED_IN: { status: 401, kind: 'authentication_error', clientCodes: ['not_signed_in'], meaning: 'No session (or an expired one) and no API key.' },
  GW_ERR_INVALID_CREDENTIALS: { status: 401, kind: 'authentication_error', clientCodes: ['invalid_credentials', 'invalid_code', 'totp_session_missing', 'passkey_not_accepted'], meaning: 'A wrong e-mail address or password, a wrong two-factor code, a second step without a pending sign-in, or a passkey answer that is unknown, replayed, expired or badly signed.' },
  GW_ERR_TOTP_REQUIRED: { status: 401, kind: 'authentication_error', clientCodes: ['totp_required'], meaning: 'The password was right; the account needs its two-factor code (POST /api/auth/login/totp).' },
  GW_ERR_CSRF: { status: 403, kind: 'permission_error', clientCodes: ['csrf_token_invalid'], meaning: 'A state-changing request with the session cookie but without the X-CSRF-Token it needs.' },
  GW_ERR_FORBIDDEN: { status: 403, kind: 'permission_error', clientCodes: ['forbidden', 'account_disabled', 'admin_only', 'email_not_verified', 'registration_closed', 'registration_domain_not_allowed', 'identity_provider_required', 'recent_sign_in_required', 'organisation_role', 'organisation_key'], meaning: 'Not allowed for this account (disabled, unverified, not an admin, registration closed, a domain that must sign in with its identity provider, a passkey added long after the sign-in, an organisation role or key that may not do it).' },
  GW_ERR_TOO_MANY_ATTEMPTS: { status: 429, kind: 'rate_limit_error', clientCodes: ['too_many_attempts'], meaning: 'Too many failed sign-ins for the address or the account (`Retry-After`).' },
  // Payments (issue 14).
  GW_ERR_CARD_PAYMENTS_OFF: { status: 503, kind: 'server_error', clientCodes: ['card_payments_not_configured'], meaning: 'A card top-up on a gateway without STRIPE_SECRET_KEY; redemption codes still work.' },
  GW_ERR_PAYMENT_PROVIDER: { status: 502, kind: 'upstream_error', clientCodes: ['payment_provider_error'], meaning: 'Stripe could not start the checkout; nothing was charged.' },
  GW_ERR_WEBHOOK_RETRY: { status: 409, kind: 'invalid_request_error', clientCodes: ['retry_later'], meaning: 'A Stripe refund event that arrived before its payment was credited: Stripe delivers it again.' },
  // The MCP gateway (issue 32): HTTP answers of /mcp, and JSON-RPC errors inside an MCP session (data.gateway_code).
  GW_ERR_MCP_SERVER_NOT_FOUND: { status: 404, kind: 'not_found_error', clientCodes: ['mcp_server_not_found'], meaning: "An MCP server that is unknown, disabled, or not one the key's group may use (the same answer for all three)." },
  GW_ERR_MCP_SERVER_RATE_LIMITED: { status: 429, kind: 'rate_limit_error', clientCodes: ['mcp_server_rate_limited'], meaning: "An MCP server's own requests-per-minute limit (rpm_limit in its settings), over every key and instance: the call did not reach the server and is not charged." },
  GW_ERR_MCP_SESSION_NOT_FOUND: { status: 404, kind: 'not_found_error', clientCodes: ['mcp_session_not_found'], meaning: 'An Mcp-Session-Id that is unknown, expired, or was opened by another key or on another path: initialize a new session.' },
  GW_ERR_MCP_SESSION_REQUIRED: { status: 400, kind: 'invalid_request_error', clientCodes: ['mcp_session_required'], meaning: 'An MCP request other than initialize without an Mcp-Session-Id header.' },
  GW_ERR_MCP_TOO_MANY_SESSIONS: { status: 429, kind: 'rate_limit_error', clientCodes: ['mcp_too_many_sessions'], meaning: 'The key holds the most MCP sessions allowed at once; close one (DELETE) or wait for an idle one to expire.' },
  GW_ERR_MCP_TOOL_NOT_FOUND: { status: 404, kind: 'not_found_error', clientCodes: ['mcp_tool_not_found'], meaning: "A tool, prompt or resource that no server the key may use offers, or outside the key's tool allowlist (the same answer)." },
  GW_ERR_MCP_UPSTREAM_TIMEOUT: { status: 504, kind: 'timeout_error', clientCodes: ['mcp_upstream_timeout'], meaning: "An upstream MCP server that did not answer within its timeout (timeout_ms); the call is logged as failed and not charged." },
  GW_ERR_MCP_UPSTREAM_UNAVAILABLE: { status: 502, kind: 'upstream_error', clientCodes: ['mcp_upstream_unavailable', 'mcp_upstream_private_network'], meaning: 'An upstream MCP server that could not be reached, refused the connection or died mid-call, or whose address is on a private network without allow_private_network.' },
  GW_ERR_CLIENT_GONE: { status: 499, kind: 'invalid_request_error', clientCodes: [], meaning: 'The client went away before the answer (logged only; nobody is left to answer).' },
} as const satisfies Record<string, DeclaredError>;

export type GatewayErrorCode = keyof typeof GATEWAY_ERRORS;

type Declared = typeof GATEWAY_ERRORS;

/** The client `code` values an entry declares, as a literal union; an entry that passes on the upstream's
 * own code ('upstream') takes any string, an entry with none (GW_ERR_CLIENT_GONE) takes none. */
export type ClientCodeOf<C extends GatewayErrorCode> =
  Declared[C]['clientCodes'][number] extends infer Listed ? ('upstream' extends Listed ? string : Listed) : never;

/** The codes whose status is the upstream's own, given by whoever raises them (GW_ERR_UPSTREAM_STATUS). */
export type UpstreamStatusCode = { [C in GatewayErrorCode]: Declared[C]['status'] extends 'upstream' ? C : never }[GatewayErrorCode];

/**
 * The kind for a status an upstream chose: the one mapping every format's error reader and the
 * passthrough error path use. 404 is OpenAI's invalid_request_error (its envelope has no not-found type;
 * the Anthropic and Google renderers map any 404 to their own not-found values by status).
 */
export function kindForStatus(status: number): GatewayErrorKind {
  if (status === 400 || status === 404 || status === 422) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 408 || status === 504) return 'timeout_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status === 502) return 'upstream_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
