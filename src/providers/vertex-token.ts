// Vertex AI's credential: a service-account JSON key, exchanged for an OAuth access token by the JWT bearer
// grant (RFC 7523), signed with the account's private key by google-auth-library, as Google's own SDKs do.
// Tokens are cached per service account (token-cache.ts) and renewed before they expire.
import { createPrivateKey } from 'node:crypto';
import { UpstreamCredentialError } from '../upstream/upstream-credential-error.ts';
import { createTokenCache, type IssuedToken } from './token-cache.ts';

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

const tokens = createTokenCache();

/** The service account in a channel key, or an error naming what is missing (never echoing the key). */
function parseServiceAccount(credential: string): ServiceAccountKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(credential);
  } catch {
    throw new UpstreamCredentialError('the Vertex channel\'s api_key is not a service-account JSON key (it does not parse as JSON)', null);
  }
  const key = parsed as Partial<ServiceAccountKey> & { type?: unknown };
  if (typeof key !== 'object' || key === null || typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new UpstreamCredentialError('the Vertex channel\'s api_key is not a service-account JSON key (client_email and private_key are required)', null);
  }
  try {
    // Parsed once here so a mangled key (a pasted key that lost its newlines) is a refused credential, not a signing crash.
    createPrivateKey(key.private_key);
  } catch {
    throw new UpstreamCredentialError(`the Vertex channel's service-account key for ${key.client_email} has a private_key that is not a PEM private key`, null);
  }
  return { client_email: key.client_email, private_key: key.private_key, ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}) };
}

/**
 * A valid access token for the service account. `tokenUrl` replaces Google's token endpoint (a private
 * endpoint, or a simulator in tests); the JWT's audience stays Google's, as google-auth-library signs it.
 */
export function vertexAccessToken(credential: string, tokenUrl: string | undefined): Promise<string> {
  return tokens.get(`${tokenUrl ?? ''}\u0000${credential}`, () => exchangeForToken(parseServiceAccount(credential), tokenUrl));
}

/** Drops a cached token the upstream has refused, so the next call asks for a new one. */
export function forgetVertexToken(credential: string, tokenUrl: string | undefined): void {
  tokens.forget(`${tokenUrl ?? ''}\u0000${credential}`);
}

async function exchangeForToken(account: ServiceAccountKey, tokenUrl: string | undefined): Promise<IssuedToken> {
  // Loaded on the first Vertex token only: the library costs ~150 ms and some memory at start-up, which a
  // gateway without Vertex channels need not pay.
  const { JWT } = await import('google-auth-library');
  const client = new JWT({ email: account.client_email, key: account.private_key, keyId: account.private_key_id, scopes: [CLOUD_PLATFORM_SCOPE] });
  if (tokenUrl && tokenUrl !== GOOGLE_TOKEN_URL) {
    client.transporter.interceptors.request.add({
      resolved: async (config) => {
        if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUrl);
        return config;
      },
    });
  }
  try {
    const credentials = await client.authorize();
    if (!credentials.access_token || !credentials.expiry_date) throw new Error('the token endpoint answered without an access token');
    return { accessToken: credentials.access_token, expiresAt: credentials.expiry_date };
  } catch (error) {
    const response = (error as { response?: { status?: number; data?: { error?: unknown; error_description?: unknown } } }).response;
    const status = response?.status;
    // 400 invalid_grant (bad signature, unknown or disabled account), 401 invalid_client: the credential itself.
    if (status === 400 || status === 401 || status === 403) {
      const code = typeof response?.data?.error === 'string' ? response.data.error : null;
      const description = typeof response?.data?.error_description === 'string' ? `: ${response.data.error_description.slice(0, 200)}` : '';
      throw new UpstreamCredentialError(`Google's token endpoint refused the service account ${account.client_email} (${status}${code ? ` ${code}` : ''}${description})`, status, code);
    }
    throw new Error(`Google's token endpoint could not be reached for the service account ${account.client_email}: ${(error as Error).message}`, { cause: error });
  }
}
