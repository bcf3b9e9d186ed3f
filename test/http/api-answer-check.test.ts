// The answer schema a route declares is checked against what the handler sends when API_CHECK_ANSWERS is
// on (every test gateway has it on): an answer outside it is the server's bug, a 500 naming the route and
// the field, so a schema that drifted from its handler fails the tests that call the route. Off (the
// default, production), answers go out as they are.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiRouter, lazyAnswer } from '../../src/http/api-route.ts';
import { buildOpenApiDocument } from '../../src/http/openapi-document.ts';

const answer = z.object({ count: z.number().int(), names: z.array(z.string()) });
let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function serve(checkAnswers: boolean, sent: unknown) {
  const app = Fastify();
  const errors: string[] = [];
  app.setErrorHandler((error: Error, _request, reply) => {
    errors.push(error.message);
    void reply.code(500).send({ error: { message: 'internal' } });
  });
  // A public route never reads the caller's dependencies.
  const router = createApiRouter(app, {} as never, { checkAnswers });
  router.route({ method: 'GET', url: '/api/thing', summary: 'A thing', tag: 'Test', access: 'public', answer, handler: async () => sent as never });
  await app.listen({ port: 0, host: '127.0.0.1' });
  close = () => app.close();
  const { port } = app.server.address() as { port: number };
  const response = await fetch(`http://127.0.0.1:${port}/api/thing`);
  return { status: response.status, body: await response.json(), errors };
}

describe('declared answers', () => {
  it('go out unchanged when they match the schema', async () => {
    expect(await serve(true, { count: 2, names: ['a', 'b'] })).toEqual({ status: 200, body: { count: 2, names: ['a', 'b'] }, errors: [] });
  });

  it('are a 500 naming the route and the field when they do not (checked as JSON, after serialisation)', async () => {
    const served = await serve(true, { count: 2.5, names: [new Date(0)] });
    expect(served.status).toBe(500);
    expect(served.errors).toHaveLength(1);
    expect(served.errors[0]).toContain('GET /api/thing answered outside its declared schema');
    expect(served.errors[0]).toContain('count:');
    expect(served.errors[0]).not.toContain('names');
  });

  it('are not checked with the check off', async () => {
    expect(await serve(false, { count: 2.5 })).toEqual({ status: 200, body: { count: 2.5 }, errors: [] });
  });

  it('may load on first use: nothing is imported at declaration, once for the document and every check after', async () => {
    let loads = 0;
    const lazy = lazyAnswer(async () => { loads += 1; return { answer }; }, (module) => module.answer);
    const app = Fastify();
    const router = createApiRouter(app, {} as never, { checkAnswers: true });
    router.route({ method: 'GET', url: '/api/lazy', summary: 'Lazy', tag: 'Test', access: 'public', answer: lazy, handler: async () => ({ count: 1, names: [] }) });
    expect(loads).toBe(0);
    const document = await buildOpenApiDocument(router.routes, 'http://localhost') as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { required?: string[] } }> }> } }> };
    expect(document.paths['/api/lazy']!.get.responses['200']!.content['application/json']!.schema.required).toEqual(['count', 'names']);
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    const { port } = app.server.address() as { port: number };
    for (let i = 0; i < 3; i += 1) expect((await fetch(`http://127.0.0.1:${port}/api/lazy`)).status).toBe(200);
    expect(loads).toBe(1);
  });
});
