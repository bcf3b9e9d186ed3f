// The dashboard's /api types are generated (issue 27, item 4): web/src/api/generated/api-types.ts is what
// `npm run api:types` writes from the OpenAPI document, and that document, built by scripts/api-types.ts from
// the route declarations without a server, is the one a running gateway serves at /api/openapi.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument, apiRoutes, renderApiTypes } from '../../scripts/api-types.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';

const GENERATED = join(import.meta.dirname, '../../web/src/api/generated/api-types.ts');

// Routes whose answers are not declared yet: the list only shrinks (a route added without its answer, or
// one declared and still listed, fails).
const ANSWER_PENDING = new Set([
  'POST /api/auth/signup',
  'POST /api/auth/verify-email',
  'POST /api/auth/resend-verification',
  'POST /api/auth/login',
  'POST /api/auth/login/totp',
  'POST /api/auth/logout',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'GET /api/auth/providers',
  'POST /api/auth/passkey/options',
  'POST /api/auth/passkey',
  'GET /api/me/passkeys',
  'POST /api/me/passkeys/options',
  'POST /api/me/passkeys',
  'PATCH /api/me/passkeys/:id',
  'DELETE /api/me/passkeys/:id',
  'GET /api/me/identities',
  'DELETE /api/me/identities/:id',
  'GET /api/me',
  'PATCH /api/me',
  'PUT /api/me/settings',
  'POST /api/me/password',
  'POST /api/me/2fa/setup',
  'POST /api/me/2fa/enable',
  'POST /api/me/2fa/disable',
  'GET /api/me/sessions',
  'DELETE /api/me/sessions/:id',
  'GET /api/keys',
  'POST /api/keys',
  'PATCH /api/keys/:id',
  'POST /api/keys/:id/rotate',
  'DELETE /api/keys/:id',
  'GET /api/groups',
  'GET /api/logs',
  'GET /api/logs/:id',
  'GET /api/admin/logs',
  'GET /api/admin/logs/:id',
  'GET /api/stats',
  'GET /api/wallet',
]);

describe('the dashboard API types', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    // With Stripe set, so the payments routes are declared too (the script declares every route).
    gateway = await startTestGateway({}, { env: { STRIPE_SECRET_KEY: 'sk_test_api_types', STRIPE_WEBHOOK_SECRET: 'whsec_api_types' } });
  });
  afterAll(async () => gateway?.dispose());

  it('are the committed file: run `npm run api:types` after changing an /api route', async () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(await renderApiTypes());
  });

  it("come from the document the gateway serves, every route's parameters and body included", async () => {
    const served = await (await fetch(`${gateway.url}/api/openapi.json`)).json() as { paths: Record<string, unknown>; components: unknown };
    const built = apiDocument(`${gateway.url}`) as { paths: Record<string, unknown>; components: unknown };
    expect(Object.keys(built.paths).sort()).toEqual(Object.keys(served.paths).sort());
    expect(built.paths).toEqual(served.paths);
    expect(built.components).toEqual(served.components);
  });

  it('declare every JSON answer (answer schemas), so the dashboard reads answers through generated types', () => {
    const undeclared = apiRoutes().filter((route) => !route.produces && !route.redirects && !route.answer).map((route) => `${route.method} ${route.url}`);
    expect(undeclared.filter((route) => !ANSWER_PENDING.has(route))).toEqual([]);
    expect([...ANSWER_PENDING].filter((route) => !undeclared.includes(route))).toEqual([]);
  });
});
