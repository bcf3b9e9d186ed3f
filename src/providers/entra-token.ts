// Azure OpenAI with Microsoft Entra ID: an app registration's client id and secret, exchanged for a bearer
// token by the OAuth 2.0 client-credentials grant at the tenant's token endpoint, for the Cognitive Services
// scope. Cached per credential (token-cache.ts) and renewed before it expires.
import { UpstreamCredentialError } from '../upstream/upstream-credential-error.ts';
import { createTokenCache, type IssuedToken } from './token-cache.ts';

const ENTRA_AUTHORITY = 'https://login.microsoftonline.com';
const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';
const TOKEN_TIMEOUT_MS = 15_000;

interface EntraCredential {
  tenant_id: string;
  client_id: string;
  client_secret: string;
}

const tokens = createTokenCache();

/** The Entra credential in a channel key (a JSON object), or null when the key is a plain api-key. */
export function parseEntraCredential(credential: string): EntraCredential | null {
  if (!credential.trimStart().startsWith('{')) return null;
  let parsed: Partial<EntraCredential>;
  try {
    parsed = JSON.parse(credential) as Partial<EntraCredential>;
  } catch {
    throw new UpstreamCredentialError('the Azure channel\'s api_key starts like a JSON Entra ID credential but does not parse', null);
  }
  const { tenant_id, client_id, client_secret } = parsed;
  if (typeof tenant_id !== 'string' || typeof client_id !== 'string' || typeof client_secret !== 'string' || !/^[A-Za-z0-9.-]{1,100}$/.test(tenant_id)) {
    throw new UpstreamCredentialError('the Azure channel\'s Entra ID credential needs tenant_id, client_id and client_secret', null);
  }
  return { tenant_id, client_id, client_secret };
}

/** A bearer token for the app registration; `authority` replaces login.microsoftonline.com (sovereign clouds, tests). */
export function entraAccessToken(credential: EntraCredential, authority: string | undefined): Promise<string> {
  const base = (authority ?? ENTRA_AUTHORITY).replace(/\/+$/, '');
  return tokens.get(cacheKey(credential, base), () => requestToken(credential, base));
}

/** Drops the cached token of a credential the upstream refused. */
export function forgetEntraToken(credential: EntraCredential, authority: string | undefined): void {
  tokens.forget(cacheKey(credential, (authority ?? ENTRA_AUTHORITY).replace(/\/+$/, '')));
}

const cacheKey = (credential: EntraCredential, authority: string) => `${authority}\u0000${credential.tenant_id}\u0000${credential.client_id}\u0000${credential.client_secret}`;

async function requestToken(credential: EntraCredential, authority: string): Promise<IssuedToken> {
  const url = `${authority}/${encodeURIComponent(credential.tenant_id)}/oauth2/v2.0/token`;
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credential.client_id, client_secret: credential.client_secret, scope: COGNITIVE_SERVICES_SCOPE });
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS) });
  } catch (error) {
    throw new Error(`the Entra ID token endpoint could not be reached: ${(error as Error).message}`, { cause: error });
  }
  const text = await response.text();
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: reported below by status
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    const code = typeof body.error === 'string' ? body.error : null;
    // Entra's descriptions carry trace ids and never the secret; the first line names the problem (AADSTS7000215 …).
    const description = typeof body.error_description === 'string' ? `: ${body.error_description.split(/\r?\n/)[0]!.slice(0, 200)}` : '';
    throw new UpstreamCredentialError(`Entra ID refused the client credentials of app ${credential.client_id} in tenant ${credential.tenant_id} (${response.status}${code ? ` ${code}` : ''}${description})`, response.status, code);
  }
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new Error(`the Entra ID token endpoint answered ${response.status} without a token`);
  }
  const lifetimeSeconds = Number(body.expires_in);
  return { accessToken: body.access_token, expiresAt: Date.now() + (Number.isFinite(lifetimeSeconds) && lifetimeSeconds > 0 ? lifetimeSeconds : 3600) * 1000 };
}
