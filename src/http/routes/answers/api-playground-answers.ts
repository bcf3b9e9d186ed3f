// What the playground routes answer (src/http/routes/api-playground-routes.ts): the chat models my
// playground key may call, and OpenAI's chat completion (the relay's own answer; streamed, its SSE chunks).
import { z } from 'zod';
import { rowId } from './common-answers.ts';

export { openaiChatResponseSchema as playgroundChatAnswer } from '../../../formats/openai-chat/openai-chat-schema.ts';

export const playgroundModelsAnswer = z.object({
  data: z.array(z.object({ id: z.string(), owned_by: z.string() })),
  /** The playground key's id (its calls are logged under it). */
  key_id: rowId,
});
