// Reads a streamed chat completion (OpenAI's server-sent events) as the playground shows it: the answer's
// text as it grows, the finish reason, the usage chunk that ends the stream, and an error event if the
// upstream fails mid-answer. Stopping is the caller's AbortController; what arrived until then is kept.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatStreamState {
  text: string;
  finishReason: string | null;
  usage: ChatUsage | null;
  error: string | null;
  done: boolean;
}

export const emptyStreamState = (): ChatStreamState => ({ text: '', finishReason: null, usage: null, error: null, done: false });

/** Applies one SSE message to the state; pure, so the rules are tested without a network. */
export function applyStreamEvent(state: ChatStreamState, data: string): ChatStreamState {
  if (data === '[DONE]') return { ...state, done: true };
  let chunk: {
    choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
    usage?: ChatUsage | null;
    error?: { message?: string };
  };
  try {
    chunk = JSON.parse(data);
  } catch {
    return state;
  }
  if (chunk.error) return { ...state, error: chunk.error.message ?? 'The model stopped with an error.', done: true };
  const choice = chunk.choices?.[0];
  return {
    ...state,
    text: state.text + (choice?.delta?.content ?? ''),
    finishReason: choice?.finish_reason ?? state.finishReason,
    usage: chunk.usage ?? state.usage,
  };
}

/** Feeds the response body through the parser, calling onUpdate with each new state. */
export async function readChatStream(body: ReadableStream<Uint8Array>, onUpdate: (state: ChatStreamState) => void): Promise<ChatStreamState> {
  let state = emptyStreamState();
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      state = applyStreamEvent(state, event.data);
      onUpdate(state);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    // An abort (the Stop button) ends the stream with what has arrived; anything else is shown.
    if (!(error instanceof DOMException && error.name === 'AbortError')) {
      state = { ...state, error: error instanceof Error ? error.message : 'The connection was lost.' };
    }
  } finally {
    reader.releaseLock();
  }
  state = { ...state, done: true };
  onUpdate(state);
  return state;
}
