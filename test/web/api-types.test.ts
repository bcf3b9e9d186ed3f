// The dashboard's /api types are generated (issue 27, item 4): web/src/api/generated/api-types.ts is what
// `npm run api:types` writes from the OpenAPI document, and that document, built by scripts/api-types.ts from
// the route declarations without a server, is the one a running gateway serves at /api/openapi.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument, apiRoutes, renderApiTypes } from '../../scripts/api-types.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';

const GENERATED = join(import.meta.dirname, '../../web/src/api/generated/api-types.ts');


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
    const built = await apiDocument(`${gateway.url}`) as { paths: Record<string, unknown>; components: unknown };
    expect(Object.keys(built.paths).sort()).toEqual(Object.keys(served.paths).sort());
    expect(built.paths).toEqual(served.paths);
    expect(built.components).toEqual(served.components);
  });

  it('declare every JSON answer (answer schemas), so the dashboard reads answers through generated types', () => {
    const undeclared = apiRoutes().filter((route) => !route.produces && !route.redirects && !route.answer).map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });
});
