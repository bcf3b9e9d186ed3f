// GET /api/openapi.json and a small self-contained page at /api/docs that lists every operation from it
// (no CDN: the gateway may run without internet access).
import type { FastifyInstance } from 'fastify';
import type { ApiRouter } from '../api-route.ts';
import { buildOpenApiDocument } from '../openapi-document.ts';

export function apiDocsRoutes(app: FastifyInstance, router: ApiRouter, publicUrl: () => string): void {
  let cached: string | undefined;
  app.get('/api/openapi.json', { config: { errorFormat: 'openai-chat' } }, async (_request, reply) => {
    cached ??= JSON.stringify(await buildOpenApiDocument(router.routes, publicUrl()));
    return reply.type('application/json').send(cached);
  });
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
    .send(DOCS_PAGE));
}

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem;color:#1b1b1b;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e8e8e8;background:#161616}code,pre{background:#262626!important}}
h2{margin-top:2rem;border-bottom:1px solid #8884}details{margin:.4rem 0;border:1px solid #8886;border-radius:6px;padding:.3rem .6rem}
summary{cursor:pointer}.m{display:inline-block;min-width:4.5em;font-weight:700;font-family:monospace}
code,pre{background:#f3f3f3;border-radius:4px;padding:.1rem .3rem}pre{padding:.6rem;overflow:auto;font-size:13px}
</style></head><body>
<h1>API reference</h1><p>Generated from <a href="/api/openapi.json">/api/openapi.json</a>.</p><main id="ops">Loading…</main>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag={};
  for(const [path,ops] of Object.entries(doc.paths))for(const [method,op] of Object.entries(ops))(byTag[op.tags[0]]??=[]).push([method,path,op]);
  const esc=s=>String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
  const main=document.getElementById('ops');main.innerHTML='';
  for(const [tag,ops] of Object.entries(byTag)){
    const h=document.createElement('h2');h.textContent=tag;main.append(h);
    for(const [method,path,op] of ops){
      const d=document.createElement('details');
      const params=(op.parameters||[]).map(p=>'<li><code>'+esc(p.name)+'</code> ('+p.in+(p.required?', required':'')+')</li>').join('');
      d.innerHTML='<summary><span class="m">'+method.toUpperCase()+'</span> <code>'+esc(path)+'</code> — '+esc(op.summary)+'</summary>'
        +(op.description?'<p>'+esc(op.description)+'</p>':'')+(params?'<p>Parameters:</p><ul>'+params+'</ul>':'')
        +(op.requestBody?'<p>Body:</p><pre>'+esc(JSON.stringify(op.requestBody.content['application/json'].schema,null,2))+'</pre>':'');
      main.append(d);
    }
  }
});
</script></body></html>`;
