// A real OpenID Connect provider (oidc-provider, the certified implementation) on a port, for sign-in
// tests. Its login and consent screens are replaced by one step that signs in `nextPerson` and grants the
// scopes asked for, as a person clicking through would: everything else (discovery, PKCE, state, nonce,
// the iss of the answer, signed ID tokens, userinfo) is the provider's own protocol code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who "signs in" at the provider in the next flow. */
  nextPerson: IdpPerson;
  close(): Promise<void>;
}

export async function startOidcIdentityProvider(options: { redirectUris: string[]; clientId?: string; clientSecret?: string; port?: number }): Promise<TestIdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'gateway-test-client';
  const clientSecret = options.clientSecret ?? 'gateway-test-client-secret-0123456789';
  const people = new Map<string, IdpPerson>();
  const state: TestIdentityProvider = {
    issuer,
    clientId,
    clientSecret,
    nextPerson: { sub: 'nobody', email: 'nobody@example.test', email_verified: true },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: person.email, email_verified: person.email_verified, ...(person.name ? { name: person.name } : {}) }) };
    },
  });
  const callback = provider.callback();
  server.on('request', (request, response) => {
    if (!request.url?.startsWith('/interaction/')) {
      callback(request, response);
      return;
    }
    (async () => {
      const details = await provider.interactionDetails(request, response);
      const person = state.nextPerson;
      people.set(person.sub, person);
      const grant = new provider.Grant({ accountId: person.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(request, response, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  return state;
}
