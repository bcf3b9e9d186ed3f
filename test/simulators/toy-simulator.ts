// A simulator of the toy-chat upstream (test/formats/toy-chat/toy-chat-wire.ts describes the protocol):
//   POST /toy/{tenant}/chat, key in x-toy-key (and, when started with a `secret`, that secret in
//   x-toy-secret); a wrong or missing one gets 401 { trouble: no_key }, a tenant other than its own 404.
// Replies (simulator-answers.ts): `Hello from the Toy simulator: you said "<last user turn>"`, cut by `stop`
// and by `max_words` (stop: 'limit'). Usage: in = words of the system text and every turn, out = words of
// the reply. Streams: { begin }, a { piece } per word, { stop, usage } last. The script steps of
// simulator-script.ts apply: omitUsage, reply, cachedTokens, cacheWriteTokens, status (with the toy's
// trouble body), and the stream shapers (cut, stall, malformed event, delays).
import { headerValue, startSimulator, type Simulator } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { countWords, greeting, shapeText, splitIntoPieces } from './simulator-answers.ts';
import type { ToyRequest } from '../formats/toy-chat/toy-chat-wire.ts';

export type ToySimulator = Simulator;

const KIND_FOR_STATUS: Record<number, string> = { 400: 'bad_request', 401: 'no_key', 429: 'busy', 500: 'broken', 503: 'overloaded' };
const trouble = (status: number, says = `toy trouble ${status}`) => ({ trouble: { kind: KIND_FOR_STATUS[status] ?? 'broken', says } });

let sequence = 0;

export function startToySimulator(options: { apiKey?: string; tenant?: string; secret?: string } = {}): Promise<ToySimulator> {
  const apiKey = options.apiKey ?? 'toy-key';
  const tenant = options.tenant ?? 'harbour';
  return startSimulator({
    errorBody: (status) => trouble(status),
    checkAuth: ({ request }) => {
      if (headerValue(request, 'x-toy-key') !== apiKey) return { status: 401, body: trouble(401, 'that is not a toy key') };
      if (options.secret !== undefined && headerValue(request, 'x-toy-secret') !== options.secret) return { status: 401, body: trouble(401, 'that is not the toy secret') };
      return null;
    },
    handle: ({ recorded, response, step }) => {
      if (recorded.method !== 'POST' || recorded.path !== `/toy/${tenant}/chat`) return sendJson(response, 404, trouble(404, `nothing at ${recorded.path}`));
      const body = recorded.body as Partial<ToyRequest> | undefined;
      if (!body || !Array.isArray(body.turns) || body.turns.length === 0) return sendJson(response, 400, trouble(400, 'a request needs turns'));
      const said = [...body.turns].reverse().find((turn) => turn.who === 'user')?.text ?? '';
      const shaped = shapeText(step.reply ?? greeting('Toy', said), body.stop, body.max_words);
      const words = countWords(body.system ?? '') + body.turns.reduce((sum, turn) => sum + countWords(String(turn.text)), 0);
      const usage = step.omitUsage ? undefined : {
        in: words, out: countWords(shaped.text),
        ...(step.cachedTokens ? { cached: step.cachedTokens } : {}),
        ...(step.cacheWriteTokens ? { cache_write: step.cacheWriteTokens } : {}),
      };
      const id = `toy-${++sequence}`;
      const stop = shaped.truncated ? 'limit' : 'done';
      if (!body.stream) return sendJson(response, 200, { id, model: body.model, reply: shaped.text, stop, ...(usage ? { usage } : {}) }, step.headers);
      const events = [{ begin: { id, model: body.model } }, ...splitIntoPieces(shaped.text).map((piece) => ({ piece })), { stop, ...(usage ? { usage } : {}) }];
      if (step.omitTerminator) events.pop();
      return sendEventStream(response, step, events.map((event) => `data: ${JSON.stringify(event)}\n\n`), { terminator: null, malformed: 'data: {"piece": not json\n\n' });
    },
  });
}
