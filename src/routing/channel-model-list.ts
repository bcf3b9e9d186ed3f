// The models a channel's upstream offers, from its own list endpoint (the provider's `models` path), for the
// admin to pick from. Read by the answer's shape, whichever provider wrote it: `data[].id` (OpenAI and every
// compatible server, Anthropic) or `models[].name` (Gemini, "models/" dropped), following the pages
// Anthropic (`has_more`, `last_id`) and Gemini (`nextPageToken`) hand out, up to MAX_PAGES.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { RoutedChannel } from './routed-channel.ts';
import { upstreamGetJson } from './upstream-get.ts';

const MAX_PAGES = 20;
const MAX_MODELS = 5_000;

type ChannelModelList = { available: true; models: string[] } | { available: false; status: number | null; reason: string };

interface ListPage {
  data?: { id?: unknown }[];
  has_more?: unknown;
  last_id?: unknown;
  models?: { name?: unknown }[];
  nextPageToken?: unknown;
}

export async function fetchChannelModels(agents: UpstreamAgents, channel: RoutedChannel): Promise<ChannelModelList> {
  const path = channel.provider.path('models', '');
  if (path === null || channel.unsupportedOperations?.has('models')) return { available: false, status: null, reason: `a ${channel.type} upstream has no model list` };
  const models = new Set<string>();
  let query = '';
  for (let page = 0; page < MAX_PAGES && models.size < MAX_MODELS; page += 1) {
    const answer = await upstreamGetJson(agents, channel, `${path}${query}`);
    if (!answer.ok) return { available: false, status: answer.status, reason: answer.error };
    const body = (answer.json ?? {}) as ListPage;
    const ids = Array.isArray(body.data) ? body.data.map((entry) => entry?.id)
      : Array.isArray(body.models) ? body.models.map((entry) => (typeof entry?.name === 'string' ? entry.name.replace(/^models\//, '') : undefined))
        : null;
    if (ids === null) return { available: false, status: answer.status, reason: 'the upstream answered a list of an unknown shape' };
    for (const id of ids) if (typeof id === 'string' && id.length > 0 && id.length <= 256) models.add(id);
    if (body.has_more === true && typeof body.last_id === 'string') query = `?limit=1000&after_id=${encodeURIComponent(body.last_id)}`;
    else if (typeof body.nextPageToken === 'string' && body.nextPageToken) query = `?pageSize=1000&pageToken=${encodeURIComponent(body.nextPageToken)}`;
    else break;
  }
  return { available: true, models: [...models].slice(0, MAX_MODELS).sort() };
}
