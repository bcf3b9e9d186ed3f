// A simulator of Google Vertex AI and of Google's OAuth token endpoint:
//   POST /token   the JWT bearer grant (RFC 7523): the assertion's RS256 signature is verified against the
//                 service account's public key, its claims (iss, aud, scope, iat/exp) checked, and an access
//                 token issued for `tokenLifetimeSeconds`; Google's {error, error_description} otherwise.
//   POST /v1[beta1]/projects/{project}/locations/{location}/publishers/google/models/{m}:generateContent,
//        :streamGenerateContent?alt=sse, :countTokens  (the Gemini simulator's answers), :predict (embeddings
//        of text-embedding-* and gemini-embedding-001), :embedContent (one content; the embedding models after
//        gemini-embedding-001 answer only this, as Vertex does)
//   POST /v1/projects/{project}/locations/{location}/publishers/anthropic/models/{m}:rawPredict,
//        :streamRawPredict  (the Anthropic simulator's answers; the body must carry
//        anthropic_version "vertex-2023-10-16" and no `model`)
//   POST .../publishers/anthropic/models/count-tokens:rawPredict  Claude's token counting: the model in the
//        body (with anthropic_version), answered {input_tokens} as Anthropic's count_tokens
// Every other call needs `Authorization: Bearer <token>` with a token issued here and not expired; an unknown
// or expired one gets Google's 401 UNAUTHENTICATED (reason ACCESS_TOKEN_EXPIRED for an expired one). Time is
// Date.now(), so a test can move it with vi.setSystemTime.
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { bearerToken, startSimulator, type Simulator, type SimulatorExchange } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { geminiError, geminiErrorForStatus } from './gemini-simulator-errors.ts';
import { countTokens, generateContent } from './gemini-simulator-generate.ts';
import { countMessageTokens, messages } from './anthropic-simulator-messages.ts';
import { anthropicError } from './anthropic-simulator-errors.ts';
import { countWords, simulatedEmbedding } from './simulator-answers.ts';

export interface VertexSimulator extends Simulator {
  /** Access tokens issued so far. */
  readonly tokensIssued: number;
  /** Calls refused for an expired token. */
  readonly expiredTokenRefusals: number;
  /** Revokes every token issued so far (they are refused from now on, as unknown ones). */
  revokeTokens(): void;
}

interface VertexSimulatorOptions {
  project: string;
  /** client_email → the service account's public key (PEM). */
  serviceAccounts: Record<string, string>;
  tokenLifetimeSeconds?: number;
}

/** The audience google-auth-library signs for, and Google checks. */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const MODEL_PATH = /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;

const unauthenticated = (reason: string) => geminiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'aiplatform.googleapis.com' } },
]);

export async function startVertexSimulator(options: VertexSimulatorOptions): Promise<VertexSimulator> {
  const lifetime = options.tokenLifetimeSeconds ?? 3599;
  const publicKeys = new Map<string, KeyObject>(Object.entries(options.serviceAccounts).map(([email, pem]) => [email, createPublicKey(pem)]));
  const tokens = new Map<string, number>();
  let issued = 0;
  let expiredRefusals = 0;
  const simulator = await startSimulator({
    errorBody: geminiErrorForStatus,
    checkAuth: ({ request, recorded }) => {
      if (recorded.path === '/token') return null;
      const token = bearerToken(request);
      if (token === undefined) return { status: 401, body: unauthenticated('CREDENTIALS_MISSING') };
      const expiresAt = tokens.get(token);
      if (expiresAt === undefined) return { status: 401, body: unauthenticated('ACCESS_TOKEN_TYPE_UNSUPPORTED') };
      if (expiresAt <= Date.now()) {
        expiredRefusals++;
        return { status: 401, body: unauthenticated('ACCESS_TOKEN_EXPIRED') };
      }
      return null;
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      if (recorded.path === '/token' && recorded.method === 'POST') {
        const refusal = checkAssertion(recorded.body, publicKeys);
        if (refusal) return sendJson(response, 400, { error: 'invalid_grant', error_description: refusal });
        const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
        tokens.set(token, Date.now() + lifetime * 1000);
        issued++;
        return sendJson(response, 200, { access_token: token, expires_in: lifetime, token_type: 'Bearer' });
      }
      const route = recorded.method === 'POST' ? MODEL_PATH.exec(recorded.path) : null;
      if (!route) return sendJson(response, 404, geminiError(404, 'NOT_FOUND', `The requested URL ${recorded.path} was not found on this server.`));
      const [, project, , publisher, model, action] = route.map((part) => decodeURIComponent(part)) as [string, string, string, string, string, string];
      if (project !== options.project) return sendJson(response, 403, geminiError(403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}' (or it may not exist).`));
      if (publisher === 'google') return googleModel(exchange, model, action);
      if (publisher === 'anthropic') return anthropicModel(exchange, model, action);
      return sendJson(response, 404, geminiError(404, 'NOT_FOUND', `Publisher Model \`projects/${project}/publishers/${publisher}/models/${model}\` not found.`));
    },
  });
  Object.defineProperty(simulator, 'tokensIssued', { get: () => issued });
  Object.assign(simulator, { revokeTokens: () => tokens.clear() });
  Object.defineProperty(simulator, 'expiredTokenRefusals', { get: () => expiredRefusals });
  return simulator as VertexSimulator;
}

/** Why a token request's JWT assertion is refused, or null when it is good. */
function checkAssertion(body: unknown, publicKeys: Map<string, KeyObject>): string | null {
  const form = new URLSearchParams(typeof body === 'string' ? body : '');
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return 'Invalid grant_type.';
  const parts = (form.get('assertion') ?? '').split('.');
  if (parts.length !== 3) return 'Invalid JWT: invalid format.';
  let header: { alg?: string };
  let claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as typeof header;
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return 'Invalid JWT: invalid format.';
  }
  if (header.alg !== 'RS256') return 'Invalid JWT: unsupported algorithm.';
  const key = claims.iss === undefined ? undefined : publicKeys.get(claims.iss);
  if (!key) return 'Invalid grant: account not found';
  if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'))) return 'Invalid JWT Signature.';
  if (claims.aud !== GOOGLE_TOKEN_AUDIENCE) return 'Invalid JWT: Failed audience check.';
  const now = Date.now() / 1000;
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp <= now || claims.iat > now + 60 || claims.exp - claims.iat > 3600) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';
  }
  if (!claims.scope?.split(' ').includes(CLOUD_PLATFORM)) return 'Invalid OAuth scope or ID token audience provided.';
  return null;
}

function googleModel(exchange: SimulatorExchange, model: string, action: string): void | Promise<void> {
  const body = exchange.recorded.body as { contents?: { role?: string }[] } | undefined;
  // Vertex, unlike the Gemini API, insists on a role for every content.
  if ((action === 'generateContent' || action === 'streamGenerateContent') && body?.contents?.some((content) => content.role !== 'user' && content.role !== 'model')) {
    return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.'));
  }
  switch (action) {
    case 'generateContent': return generateContent(exchange, model, false);
    case 'streamGenerateContent': return generateContent(exchange, model, exchange.recorded.query.get('alt') === 'sse');
    case 'countTokens': return countTokens(exchange);
    case 'predict':
      if (EMBED_CONTENT_ONLY.test(model)) return sendJson(exchange.response, 400, geminiError(400, 'FAILED_PRECONDITION', `Model ${model} does not support predict; use embedContent.`));
      return predictEmbeddings(exchange, model);
    case 'embedContent': return embedContent(exchange, model);
  }
  return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', `Unsupported method ${action} for publisher model ${model}.`));
}

function anthropicModel(exchange: SimulatorExchange, model: string, action: string): void | Promise<void> {
  const body = exchange.recorded.body as Record<string, unknown> | undefined;
  const invalid = (message: string) => sendJson(exchange.response, 400, anthropicError('invalid_request_error', message));
  if (model === 'count-tokens' && action === 'rawPredict') {
    if (!body || typeof body !== 'object') return invalid('There was an issue with your request: the body is not valid JSON.');
    if (body.anthropic_version !== 'vertex-2023-10-16') return invalid(body.anthropic_version === undefined ? 'anthropic_version: Field required' : `anthropic_version: Input should be 'vertex-2023-10-16'`);
    if (typeof body.model === 'string' && body.model.includes('/')) return invalid(`model: ${body.model} is not a Claude model id on Vertex`);
    const { anthropic_version: _version, ...rest } = body;
    return countMessageTokens({ ...exchange, recorded: { ...exchange.recorded, body: rest } });
  }
  if (action !== 'rawPredict' && action !== 'streamRawPredict') return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', `Unsupported method ${action} for publisher model ${model}.`));
  if (!body || typeof body !== 'object') return invalid('There was an issue with your request: the body is not valid JSON.');
  if (body.anthropic_version !== 'vertex-2023-10-16') return invalid(body.anthropic_version === undefined ? 'anthropic_version: Field required' : `anthropic_version: Input should be 'vertex-2023-10-16'`);
  if ('model' in body) return invalid('model: Extra inputs are not permitted');
  if ((action === 'streamRawPredict') !== (body.stream === true)) return invalid(action === 'streamRawPredict' ? 'streamRawPredict needs "stream": true' : 'rawPredict does not stream: use streamRawPredict');
  const { anthropic_version: _version, ...rest } = body;
  return messages({ ...exchange, recorded: { ...exchange.recorded, body: { ...rest, model } } });
}

/** The Gemini embedding models after gemini-embedding-001: embedContent only. */
const EMBED_CONTENT_ONLY = /^gemini-embedding-(?!001)/;
const EMBED_CONTENT_FIELDS = new Set(['content', 'embedContentConfig']);

/** Vertex's embedContent: {content: {role?, parts}, embedContentConfig?: {taskType?, title?, outputDimensionality?, autoTruncate?}}. */
function embedContent(exchange: SimulatorExchange, model: string): void {
  const body = exchange.recorded.body as { content?: { parts?: { text?: unknown }[] }; embedContentConfig?: { outputDimensionality?: number } } | undefined;
  const unknown = Object.keys(body ?? {}).find((key) => !EMBED_CONTENT_FIELDS.has(key));
  if (unknown !== undefined) return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`));
  const parts = body?.content?.parts;
  if (!Array.isArray(parts) || parts.length === 0 || parts.some((part) => typeof part?.text !== 'string')) {
    return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', 'content.parts must hold at least one text part.'));
  }
  const text = parts.map((part) => part.text as string).join(' ');
  const dimensions = body?.embedContentConfig?.outputDimensionality ?? (model.startsWith('gemini-embedding') ? 3072 : 768);
  sendJson(exchange.response, 200, { embedding: { values: simulatedEmbedding(text, dimensions) }, usageMetadata: { promptTokenCount: countWords(text), totalTokenCount: countWords(text) }, truncated: false });
}

/** Vertex's text-embedding predict: {instances: [{content, task_type?, title?}], parameters?: {outputDimensionality?}}. */
function predictEmbeddings(exchange: SimulatorExchange, model: string): void {
  const body = exchange.recorded.body as { instances?: { content?: unknown }[]; parameters?: { outputDimensionality?: number } } | undefined;
  if (!Array.isArray(body?.instances) || body.instances.length === 0 || body.instances.some((instance) => typeof instance?.content !== 'string')) {
    return sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', 'Invalid instances: each needs a string content.'));
  }
  const dimensions = body.parameters?.outputDimensionality ?? (model === 'gemini-embedding-001' ? 3072 : 768);
  const predictions = body.instances.map((instance) => {
    const text = instance.content as string;
    return { embeddings: { values: simulatedEmbedding(text, dimensions), statistics: { token_count: countWords(text), truncated: false } } };
  });
  sendJson(exchange.response, 200, { predictions, metadata: { billableCharacterCount: body.instances.reduce((sum, instance) => sum + (instance.content as string).length, 0) } });
}
