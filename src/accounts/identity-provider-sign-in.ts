// Sign-in with an identity provider through openid-client: OpenID Connect by discovery (Google, Microsoft,
// Okta, Keycloak, ...) or GitHub's OAuth (no ID token: the person and their verified addresses come from
// GitHub's API). Always the authorization code flow with PKCE (S256) and state; nonce too for OpenID
// Connect. openid-client checks the issuer (discovery document, the `iss` of the answer where the provider
// sends one, the ID token), the state, the nonce and the token signatures.
import type * as OpenIdClient from 'openid-client';
import type { AccountsDeps } from './accounts-deps.ts';
import { GITHUB_DEFAULT_BASE, type IdentityProviderRow } from './identity-provider-store.ts';
import type { ExternalPerson } from './external-identity.ts';
import type { SigninFlowData } from './signin-flows.ts';

// Loaded on first use: a gateway without identity providers never pays for openid-client.
const loadClient = () => import('openid-client');

/** Discovery results by provider (id and last change), refreshed after an hour. */
const configurations = new Map<string, { at: number; config: Promise<OpenIdClient.Configuration> }>();
const DISCOVERY_TTL_MS = 3_600_000;

/** Plain http is allowed only towards this machine (a Keycloak on localhost while developing). */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

export function redirectUriFor(deps: AccountsDeps, provider: Pick<IdentityProviderRow, 'slug'>): string {
  return `${deps.publicUrl()}/api/auth/sso/${encodeURIComponent(provider.slug)}/callback`;
}

function githubApiBase(provider: Pick<IdentityProviderRow, 'issuer'>): string {
  const base = (provider.issuer ?? GITHUB_DEFAULT_BASE).replace(/\/+$/, '');
  // github.com's API has a host of its own; GitHub Enterprise Server serves it under /api/v3.
  return base === GITHUB_DEFAULT_BASE ? 'https://api.github.com' : `${base}/api/v3`;
}

async function configurationFor(deps: AccountsDeps, provider: IdentityProviderRow, now = Date.now()): Promise<OpenIdClient.Configuration> {
  const cacheKey = `${provider.id}:${provider.updated_at}`;
  const cached = configurations.get(cacheKey);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const client = await loadClient();
  const secret = deps.secrets.decrypt(provider.client_secret_encrypted);
  const base = provider.issuer ?? GITHUB_DEFAULT_BASE;
  const insecure = base.startsWith('http:') && isLoopback(base);
  const config = (async () => {
    let configuration: OpenIdClient.Configuration;
    if (provider.kind === 'github') {
      const root = base.replace(/\/+$/, '');
      configuration = new client.Configuration(
        { issuer: root, authorization_endpoint: `${root}/login/oauth/authorize`, token_endpoint: `${root}/login/oauth/access_token` },
        provider.client_id, secret,
      );
    } else {
      configuration = await client.discovery(new URL(base), provider.client_id, secret, undefined, insecure ? { execute: [client.allowInsecureRequests] } : undefined);
    }
    if (insecure && provider.kind === 'github') client.allowInsecureRequests(configuration);
    return configuration;
  })();
  configurations.set(cacheKey, { at: now, config });
  config.catch(() => configurations.delete(cacheKey));
  return config;
}

/** The provider's authorization URL for a new flow, and the flow's secrets (to be stored for the return). */
export async function startProviderSignIn(deps: AccountsDeps, provider: IdentityProviderRow, next: string): Promise<{ url: string; flow: SigninFlowData }> {
  const client = await loadClient();
  const config = await configurationFor(deps, provider);
  const verifier = client.randomPKCECodeVerifier();
  const flow: SigninFlowData = { state: client.randomState(), nonce: client.randomNonce(), verifier, next };
  const parameters: Record<string, string> = {
    redirect_uri: redirectUriFor(deps, provider),
    scope: provider.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
  };
  if (provider.kind === 'oidc') parameters.nonce = flow.nonce;
  return { url: client.buildAuthorizationUrl(config, parameters).href, flow };
}

/** Exchanges the code of the provider's answer (currentUrl: the callback URL as received) for the person. */
export async function finishProviderSignIn(deps: AccountsDeps, provider: IdentityProviderRow, flow: SigninFlowData, currentUrl: URL): Promise<ExternalPerson> {
  const client = await loadClient();
  const config = await configurationFor(deps, provider);
  if (provider.kind === 'github') {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, undefined, { idTokenExpected: false } as never);
    return githubPerson(provider, tokens.access_token);
  }
  const tokens = await client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
  const claims = tokens.claims()!;
  let source: Record<string, unknown> = claims;
  // Many providers put the address in the userinfo answer only, not in the ID token.
  if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
    source = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  }
  return {
    subject: claims.sub,
    email: typeof source.email === 'string' ? source.email : null,
    // Only a literal true counts: a missing claim, "true" or 1 is not a provider's promise.
    emailVerified: source.email_verified === true,
    name: typeof source.name === 'string' ? source.name : null,
  };
}

const GITHUB_ANSWER_LIMIT = 256 * 1024;

async function githubGet(url: string, accessToken: string): Promise<unknown> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'model-gateway' }, signal: AbortSignal.timeout(15_000) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`GitHub answered ${response.status} to ${new URL(url).pathname}`);
  }
  return JSON.parse(await limitedText(response, GITHUB_ANSWER_LIMIT, new URL(url).pathname));
}

/** The body as text, read no further than `limit` bytes: a server answering without end is cut off there. */
async function limitedText(response: Response, limit: number, what: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Cancelling closes the socket: nothing more is read.
      await reader.cancel().catch(() => {});
      throw new Error(`GitHub's answer to ${what} is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** GitHub's user, and its primary address only when GitHub says it is verified. */
async function githubPerson(provider: IdentityProviderRow, accessToken: string): Promise<ExternalPerson> {
  const api = githubApiBase(provider);
  const user = await githubGet(`${api}/user`, accessToken) as { id?: unknown; name?: unknown; login?: unknown };
  if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new Error('GitHub answered a user without an id');
  const emails = await githubGet(`${api}/user/emails`, accessToken);
  const list = Array.isArray(emails) ? emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }> : [];
  const chosen = list.find((entry) => entry.primary === true && entry.verified === true && typeof entry.email === 'string');
  const anyPrimary = list.find((entry) => entry.primary === true && typeof entry.email === 'string');
  return {
    subject: String(user.id),
    email: (chosen?.email ?? anyPrimary?.email ?? null) as string | null,
    emailVerified: chosen !== undefined,
    name: typeof user.name === 'string' ? user.name : typeof user.login === 'string' ? user.login : null,
  };
}
