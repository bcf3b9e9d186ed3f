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
  'GET /api/orgs',
  'POST /api/orgs',
  'GET /api/orgs/:id',
  'PATCH /api/orgs/:id',
  'GET /api/orgs/:id/members',
  'PATCH /api/orgs/:id/members/:user_id',
  'DELETE /api/orgs/:id/members/:user_id',
  'POST /api/orgs/:id/transfer',
  'GET /api/orgs/:id/invites',
  'POST /api/orgs/:id/invites',
  'DELETE /api/orgs/:id/invites/:invite_id',
  'POST /api/orgs/join',
  'GET /api/orgs/:id/keys',
  'POST /api/orgs/:id/keys',
  'PATCH /api/orgs/:id/keys/:key_id',
  'POST /api/orgs/:id/keys/:key_id/rotate',
  'DELETE /api/orgs/:id/keys/:key_id',
  'GET /api/admin/keys',
  'POST /api/admin/keys',
  'PATCH /api/admin/keys/:id',
  'DELETE /api/admin/keys/:id',
  'GET /api/admin/users',
  'POST /api/admin/users',
  'GET /api/admin/users/:id',
  'PATCH /api/admin/users/:id',
  'POST /api/admin/users/:id/reset-2fa',
  'POST /api/admin/users/:id/grant',
  'GET /api/admin/audit',
  'GET /api/admin/channels',
  'GET /api/admin/channel-types',
  'POST /api/admin/channels',
  'PATCH /api/admin/channels/:id',
  'DELETE /api/admin/channels/:id',
  'POST /api/admin/channels/:id/test',
  'GET /api/admin/models',
  'PUT /api/admin/models',
  'DELETE /api/admin/models/:name',
  'GET /api/admin/groups',
  'PUT /api/admin/groups',
  'DELETE /api/admin/groups/:name',
  'GET /api/admin/settings',
  'PUT /api/admin/settings',
  'POST /api/admin/settings/test-mail',
  'GET /api/admin/overview',
  'GET /api/admin/channels/:id/balance',
  'GET /api/admin/channels/:id/upstream-models',
  'POST /api/admin/channels/test-all',
  'GET /api/admin/identity-providers',
  'POST /api/admin/identity-providers',
  'PATCH /api/admin/identity-providers/:id',
  'DELETE /api/admin/identity-providers/:id',
  'GET /api/admin/signin-domains',
  'PUT /api/admin/signin-domains',
  'GET /api/admin/mcp-servers',
  'POST /api/admin/mcp-servers',
  'PATCH /api/admin/mcp-servers/:id',
  'DELETE /api/admin/mcp-servers/:id',
  'POST /api/admin/mcp-servers/:id/test',
  'GET /api/admin/organisations',
  'PATCH /api/admin/organisations/:id',
  'GET /api/playground/models',
  'POST /api/playground/chat/completions',
  'GET /api/wallet/topup',
  'POST /api/wallet/topup',
  'GET /api/wallet/payments',
  'GET /api/wallet/payments/:id',
  'POST /api/wallet/redeem',
  'POST /api/payments/stripe/webhook',
  'GET /api/admin/payments',
  'PUT /api/admin/payments/settings',
  'POST /api/admin/redemption-codes',
  'GET /api/admin/redemption-codes',
  'POST /api/admin/redemption-codes/:id/revoke',
  'GET /api/orgs/:id/logs',
  'GET /api/orgs/:id/logs/:log_id',
  'GET /api/orgs/:id/stats',
  'GET /api/orgs/:id/wallet',
  'POST /api/orgs/:id/wallet/topup',
  'POST /api/orgs/:id/wallet/redeem',
  'GET /api/orgs/:id/wallet/payments',
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
