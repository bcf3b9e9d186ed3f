// GitHub's OAuth web flow and the two API calls sign-in makes, as a GitHub Enterprise Server lays them out
// (one host: /login/oauth/authorize, /login/oauth/access_token, /api/v3/user, /api/v3/user/emails).
// The authorize step signs in `nextPerson` at once (as a person clicking "Authorize" would) and redirects
// back with a single-use code; the token exchange checks the client, the redirect URI and PKCE (S256).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from './simulator-http.ts';

export interface GithubPerson {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface GithubSimulator {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  nextPerson: GithubPerson;
  /** Token exchanges refused (wrong client, code or verifier), for assertions. */
  refusedExchanges: number;
  close(): Promise<void>;
}

interface PendingCode { person: GithubPerson; redirectUri: string; challenge: string | null; clientId: string }

export async function startGithubSimulator(): Promise<GithubSimulator> {
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, GithubPerson>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sim: GithubSimulator = {
    baseUrl: `http://localhost:${(server.address() as AddressInfo).port}`,
    clientId: 'Iv1.gateway-test',
    clientSecret: 'github-test-secret-0123456789',
    nextPerson: { id: 1, login: 'nobody', name: null, emails: [] },
    refusedExchanges: 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  server.on('request', (request, response) => {
    (async () => {
      const url = new URL(request.url ?? '/', sim.baseUrl);
      if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri');
        if (url.searchParams.get('client_id') !== sim.clientId || !redirectUri) return sendJson(response, 400, { error: 'bad authorize request' });
        const code = randomBytes(10).toString('hex');
        codes.set(code, { person: sim.nextPerson, redirectUri, challenge: url.searchParams.get('code_challenge'), clientId: sim.clientId });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        const state = url.searchParams.get('state');
        if (state) back.searchParams.set('state', state);
        response.writeHead(302, { location: back.href }).end();
        return;
      }
      if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const form = new URLSearchParams(await readBody(request));
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const verifierOk = pending?.challenge ? createHash('sha256').update(verifier).digest('base64url') === pending.challenge : true;
        if (!pending || basicId !== sim.clientId || basicSecret !== sim.clientSecret || form.get('redirect_uri') !== pending.redirectUri || !verifierOk) {
          sim.refusedExchanges++;
          // GitHub answers a bad code with 200 and an error field; openid-client must treat it as a failure.
          return sendJson(response, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        }
        const token = `gho_${randomBytes(16).toString('hex')}`;
        tokens.set(token, pending.person);
        return sendJson(response, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      const person = tokens.get(/^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
      if (request.method === 'GET' && (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails')) {
        if (!person) return sendJson(response, 401, { message: 'Bad credentials' });
        if (url.pathname === '/api/v3/user') return sendJson(response, 200, { id: person.id, login: person.login, name: person.name });
        return sendJson(response, 200, person.emails.map((entry) => ({ ...entry, visibility: null })));
      }
      sendJson(response, 404, { message: 'Not Found' });
    })().catch((error: unknown) => sendJson(response, 500, { message: String(error) }));
  });
  return sim;
}
