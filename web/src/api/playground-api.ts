// The playground talks to the same relay as any key, under the signed-in session: the gateway charges it
// to the user's wallet and logs it under the key name "playground".
import { api, ApiError, apiRequest } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';
import { readChatStream, type ChatStreamState } from '../pages/playground/chat-stream.ts';

export interface PlaygroundMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export async function listPlaygroundModels(): Promise<string[]> {
  const answer = await api.get<ApiAnswer<'/api/playground/models', 'get'>>('/api/playground/models');
  return answer.data.map((model) => model.id);
}

interface PlaygroundRequest {
  model: string;
  messages: PlaygroundMessage[];
  temperature: number;
  max_tokens: number;
}

/** Streams one answer; resolves with the final state and the request id the gateway logged it under. */
export async function streamPlaygroundChat(
  request: PlaygroundRequest,
  signal: AbortSignal,
  csrfToken: () => string | null,
  onUpdate: (state: ChatStreamState) => void,
): Promise<{ state: ChatStreamState; requestId: string | null }> {
  const token = csrfToken();
  const response = await fetch('/api/playground/chat/completions', {
    method: 'POST',
    credentials: 'same-origin',
    signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { 'x-csrf-token': token } : {}) },
    body: JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
  });
  const requestId = response.headers.get('x-request-id');
  if (!response.ok || !response.body) {
    const data = (await response.json().catch(() => null)) as { error?: { message?: string; code?: string; param?: string } } | null;
    throw new ApiError(response.status, data?.error?.message ?? `The request failed (HTTP ${response.status}).`, data?.error?.code ?? null, data?.error?.param ?? null, null);
  }
  return { state: await readChatStream(response.body, onUpdate), requestId };
}

/** The logged cost of a call, found by its request id once the usage log has it (written behind). */
export async function loggedCostUsd(requestId: string, attempts = 12): Promise<number | null> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      const page = await apiRequest<ApiAnswer<'/api/logs', 'get'>>('GET', '/api/logs?limit=20');
      const row = page.data.find((entry) => entry.request_id === requestId);
      if (row) return row.cost_usd;
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}
