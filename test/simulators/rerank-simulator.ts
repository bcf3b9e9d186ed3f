// A simulator of the Jina (/v1/rerank) and Cohere (/v2/rerank) rerank APIs. Relevance is the share of the
// query's words found in each document, so tests can predict the order.
import { startSimulator, type Simulator } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';

export function startRerankSimulator(options: { apiKey?: string } = {}): Promise<Simulator> {
  const apiKey = options.apiKey ?? 'sk-sim-rerank';
  return startSimulator({
    checkAuth: ({ request }) => (request.headers.authorization === `Bearer ${apiKey}` ? null : { status: 401, body: { detail: 'Unauthorized' } }),
    errorBody: (status) => ({ detail: `simulated error ${status}` }),
    handle: ({ recorded, response }) => {
      const body = recorded.body as { model: string; query: string; documents: string[]; top_n?: number; return_documents?: boolean };
      const words = body.query.toLowerCase().split(/\W+/).filter(Boolean);
      const scored = body.documents.map((document, index) => ({
        index,
        relevance_score: Number((words.filter((word) => document.toLowerCase().includes(word)).length / Math.max(1, words.length)).toFixed(4)),
        document,
      })).sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index).slice(0, body.top_n ?? body.documents.length);
      if (recorded.path === '/v2/rerank') {
        return sendJson(response, 200, { id: 'rerank-sim', results: scored.map(({ index, relevance_score }) => ({ index, relevance_score })), meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } });
      }
      if (recorded.path === '/v1/rerank') {
        const tokens = body.documents.join(' ').split(/\s+/).length + words.length;
        return sendJson(response, 200, { model: body.model, usage: { total_tokens: tokens }, results: scored.map(({ index, relevance_score, document }) => ({ index, relevance_score, ...(body.return_documents ? { document: { text: document } } : {}) })) });
      }
      return sendJson(response, 404, { detail: 'Not Found' });
    },
  });
}
