// Closes an Anthropic event stream the upstream left unfinished (no message_stop): the open content blocks
// are stopped, a message_delta is sent if none came, then message_stop, so clients finish instead of hanging.
import type { SseEvent } from '../../hub/hub-stream.ts';
import type { StreamCloser } from '../../hub/hub-format.ts';

export function anthropicStreamCloser(): StreamCloser {
  const open = new Set<number>();
  let sawDelta = false;
  let sawStop = false;
  return {
    observe(event) {
      const type = event.event ?? '';
      if (type === 'content_block_start' || type === 'content_block_stop') {
        const index = (JSON.parse(event.data) as { index?: number }).index ?? 0;
        if (type === 'content_block_start') open.add(index);
        else open.delete(index);
      }
      if (type === 'message_delta') sawDelta = true;
      if (type === 'message_stop') sawStop = true;
    },
    close(outputTokens) {
      if (sawStop) return [];
      const out: SseEvent[] = [];
      for (const index of open) out.push({ event: 'content_block_stop', data: JSON.stringify({ type: 'content_block_stop', index }) });
      if (!sawDelta) {
        out.push({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }) });
      }
      out.push({ event: 'message_stop', data: JSON.stringify({ type: 'message_stop' }) });
      return out;
    },
  };
}
