// A simulator of an Azure OpenAI resource (https://{resource}.openai.azure.com) and of its Entra ID token
// endpoint, answering in OpenAI's shapes (the OpenAI simulator's handlers) at Azure's paths:
//   POST /openai/deployments/{deployment}/{chat/completions|completions|embeddings|images/generations|
//        images/edits|audio/transcriptions|audio/speech}?api-version=…  (api-version required; the
//        deployment, not the body, names the model)
//   POST /openai/v1/{same operations, and responses}                  (the v1 style: the body's model is the deployment)
//   GET  /openai/models?api-version=…, GET /openai/v1/models
//   POST /{tenant}/oauth2/v2.0/token                                   (Entra ID client-credentials grant)
// Auth: `api-key: <apiKey>`, or `Authorization: Bearer <token>` with a token this simulator issued and that
// has not expired (on /openai/v1 also the key as a bearer); anything else gets Azure's 401. Tokens are refused after `tokenLifetimeSeconds`.
import { randomBytes } from 'node:crypto';
import { bearerToken, headerValue, startSimulator, type Simulator, type SimulatorExchange } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { openAIErrorForStatus } from './openai-simulator-errors.ts';
import { chatCompletions } from './openai-simulator-chat.ts';
import { completions, embeddings } from './openai-simulator-legacy.ts';
import { imagesEdits, imagesGenerations, speech, transcriptions } from './openai-simulator-endpoints.ts';
import { responses } from './openai-simulator-responses.ts';

export interface AzureSimulator extends Simulator {
  /** Tokens issued by the Entra endpoint so far. */
  readonly tokensIssued: number;
}

interface AzureSimulatorOptions {
  apiKey?: string;
  /** Deployments that exist (404 DeploymentNotFound for others); every name when absent. */
  deployments?: string[];
  /** The one app registration the Entra endpoint knows. */
  entra?: { tenantId: string; clientId: string; clientSecret: string };
  tokenLifetimeSeconds?: number;
}

export const AZURE_SCOPE = 'https://cognitiveservices.azure.com/.default';

type Handler = (exchange: SimulatorExchange) => void | Promise<void>;
const OPERATIONS: Record<string, Handler> = {
  'chat/completions': chatCompletions,
  'completions': completions,
  'embeddings': embeddings,
  'images/generations': imagesGenerations,
  'images/edits': imagesEdits,
  'audio/transcriptions': transcriptions,
  'audio/speech': speech,
};

const azureError = (code: string, message: string) => ({ error: { code, message } });
const TOKEN_PATH = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;

export async function startAzureSimulator(options: AzureSimulatorOptions = {}): Promise<AzureSimulator> {
  const apiKey = options.apiKey ?? 'azure-sim-key-0001';
  const lifetime = options.tokenLifetimeSeconds ?? 3599;
  const tokens = new Map<string, number>();
  let issued = 0;
  const deploymentExists = (name: string) => options.deployments === undefined || options.deployments.includes(name);
  const simulator = await startSimulator({
    errorBody: openAIErrorForStatus,
    checkAuth: ({ request, recorded }) => {
      if (TOKEN_PATH.test(recorded.path)) return null;
      if (headerValue(request, 'api-key') === apiKey) return null;
      const token = bearerToken(request);
      // The v1 API also takes the resource key as a bearer (Microsoft's OpenAI-client examples send it so).
      if (token === apiKey && recorded.path.startsWith('/openai/v1/')) return null;
      const expiresAt = token === undefined ? undefined : tokens.get(token);
      if (expiresAt !== undefined && expiresAt > Date.now()) return null;
      if (token !== undefined) return { status: 401, body: azureError('401', 'Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.') };
      return { status: 401, body: azureError('401', 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.') };
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      const { method, path } = recorded;
      const tokenPath = TOKEN_PATH.exec(path);
      if (tokenPath && method === 'POST') {
        const form = new URLSearchParams(typeof recorded.body === 'string' ? recorded.body : '');
        const entra = options.entra;
        if (!entra || decodeURIComponent(tokenPath[1]!) !== entra.tenantId) return sendJson(response, 400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tokenPath[1]}' not found.`, error_codes: [90002] });
        if (form.get('grant_type') !== 'client_credentials') return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003: The app requested an unsupported grant type.' });
        if (form.get('scope') !== AZURE_SCOPE) return sendJson(response, 400, { error: 'invalid_scope', error_description: `AADSTS1002012: The provided value for scope ${form.get('scope')} is not valid.` });
        if (form.get('client_id') !== entra.clientId) return sendJson(response, 400, { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.` });
        if (form.get('client_secret') !== entra.clientSecret) return sendJson(response, 401, { error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${entra.clientId}'.`, error_codes: [7000215] });
        const token = `eyJ0eXAiOiJKV1Qi.sim.${randomBytes(18).toString('base64url')}`;
        tokens.set(token, Date.now() + lifetime * 1000);
        issued++;
        return sendJson(response, 200, { token_type: 'Bearer', expires_in: lifetime, ext_expires_in: lifetime, access_token: token });
      }
      if (method === 'GET' && (path === '/openai/v1/models' || path === '/openai/models')) {
        if (path === '/openai/models' && !recorded.query.get('api-version')) return sendJson(response, 404, azureError('404', 'Resource not found'));
        return sendJson(response, 200, { object: 'list', data: (options.deployments ?? ['gpt-4o']).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) });
      }
      const deployment = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(path);
      if (deployment && method === 'POST') {
        // Azure answers a deployment path without api-version with 404 Resource not found.
        if (!recorded.query.get('api-version')) return sendJson(response, 404, azureError('404', 'Resource not found'));
        const name = decodeURIComponent(deployment[1]!);
        if (!deploymentExists(name)) return sendJson(response, 404, azureError('DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.'));
        const handler = OPERATIONS[deployment[2]!];
        if (!handler) return sendJson(response, 404, azureError('404', 'Resource not found'));
        // The deployment names the model; a JSON body's own `model` is ignored, as Azure does.
        const body = recorded.body !== null && typeof recorded.body === 'object' ? { ...recorded.body, model: name } : recorded.body;
        return handler({ ...exchange, recorded: { ...recorded, body } });
      }
      const v1 = /^\/openai\/v1\/(.+)$/.exec(path);
      if (v1 && method === 'POST') {
        const handler = v1[1] === 'responses' ? responses : OPERATIONS[v1[1]!];
        if (!handler) return sendJson(response, 404, azureError('404', 'Resource not found'));
        const model = (recorded.body as { model?: unknown } | undefined)?.model;
        if (typeof model === 'string' && !deploymentExists(model)) return sendJson(response, 404, azureError('DeploymentNotFound', 'The API deployment for this resource does not exist.'));
        return handler(exchange);
      }
      return sendJson(response, 404, azureError('404', 'Resource not found'));
    },
  });
  return Object.defineProperty(simulator, 'tokensIssued', { get: () => issued }) as AzureSimulator;
}
