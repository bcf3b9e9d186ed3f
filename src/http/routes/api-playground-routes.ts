// The dashboard's playground: the models the signed-in user may call, and chat completions relayed under
// the user's playground key (session with CSRF, like every state-changing /api request).
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { playgroundKeyFor } from '../../accounts/playground-key.ts';
import { fastifyExchange, relayForKey } from './relay-route.ts';
import { CHAT_COMPLETIONS } from './chat-completions-route.ts';
import { kindOfModel } from '../../config/model-kind.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const apiPlaygroundAnswers = () => import('./answers/api-playground-answers.ts');

export function apiPlaygroundRoutes(api: ApiRouter, deps: RelayDeps, accounts: AccountsDeps): void {
  const tag = 'Playground';
  api.route({
    method: 'GET', url: '/api/playground/models', tag, access: 'verified', summary: 'The chat models the playground can call (those of my playground key\'s group; not embedding, image, audio or rerank models).',
    answer: lazyAnswer(apiPlaygroundAnswers, (m) => m.playgroundModelsAnswer),
    handler: async ({ caller }) => {
      const key = await playgroundKeyFor(accounts, deps.state, caller.user.id);
      const snapshot = deps.state.current;
      const models = snapshot.routing.modelsForGroup(key.groupName)
        .filter((model) => (!key.models || key.models.has(model.id)) && kindOfModel(snapshot.models.get(model.id), snapshot.pricing.get(model.id)) === 'chat');
      return { data: models.map((model) => ({ id: model.id, owned_by: model.ownedBy })), key_id: key.id };
    },
  });
  api.route({
    method: 'POST', url: '/api/playground/chat/completions', tag, access: 'verified',
    summary: "A chat completion (OpenAI's request and answer, streamed or not) under my playground key: logged under the key name \"playground\" and charged to my wallet.",
    answer: lazyAnswer(apiPlaygroundAnswers, (m) => m.playgroundChatAnswer), returns: "OpenAI's chat completion; with stream: true, its chunks as server-sent events (text/event-stream)",
    handler: async ({ caller, request, reply }) => {
      await relayForKey(deps, fastifyExchange(request, reply), await playgroundKeyFor(accounts, deps.state, caller.user.id), CHAT_COMPLETIONS);
      return reply;
    },
  });
}
