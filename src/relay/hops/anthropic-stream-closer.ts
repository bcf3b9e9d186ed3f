// Closes an Anthropic event stream the upstream left unfinished (no message_stop): the open content blocks
// are stopped, a message_delta is sent if none came, then message_stop, so clients finish instead of hanging.
import { formatSseEvent } from '../sse-pump.ts';

export interface AnthropicStreamCloser {
  observe(eventName: string | undefined, data: string): void;
  /** The events that finish the stream properly, or '' when it already finished. */
  close(outputTokens: number): string;
}

export function anthropicStreamCloser(): AnthropicStreamCloser {
  const open = new Set<number>();
  let sawDelta = false;
  let sawStop = false;
  return {
    observe(eventName, data) {
      const type = eventName ?? '';
      if (type === 'content_block_start' || type === 'content_block_stop') {
        const index = (JSON.parse(data) as { index?: number }).index ?? 0;
        if (type === 'content_block_start') open.add(index);
        else open.delete(index);
      }
      if (type === 'message_delta') sawDelta = true;
      if (type === 'message_stop') sawStop = true;
    },
    close(outputTokens) {
      if (sawStop) return '';
      let out = '';
      for (const index of open) out += formatSseEvent(JSON.stringify({ type: 'content_block_stop', index }), 'content_block_stop');
      if (!sawDelta) {
        out += formatSseEvent(JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }), 'message_delta');
      }
      return out + formatSseEvent(JSON.stringify({ type: 'message_stop' }), 'message_stop');
    },
  };
}
