// A Gemini client's body made fit for a Gemini channel, where it is otherwise forwarded as sent: without the
// thought parts another provider produced. The gateway marked their signatures when it wrote them to the
// client (hub-signatures.ts), and Gemini refuses a thought signature it did not make, so a session that
// switched from a Claude or GPT model back to Gemini would fail with a 400. The visible text and function
// calls stay. (Translated channels get the hub request, whose conversion leaves such thoughts out too.)
import { isMarkedSignature } from '../../hub/hub-signatures.ts';

type Part = Record<string, unknown>;
type Content = { role?: unknown; parts?: unknown };

/** True when the raw body may hold a marked signature (a cheap look at the bytes before any parsing). */
export function mayHoldForeignThoughts(rawBody: Buffer): boolean {
  return rawBody.includes('gwsig:');
}

/** The body without parts whose thoughtSignature the gateway marked as another provider's; null when none is. */
export function withoutForeignThoughts(body: Record<string, unknown>): Record<string, unknown> | null {
  if (!Array.isArray(body.contents)) return null;
  let removed = false;
  const contents = (body.contents as Content[]).map((content) => {
    if (!Array.isArray(content?.parts)) return content;
    let changed = false;
    const parts = (content.parts as Part[]).flatMap((part) => {
      if (!isMarkedSignature(part?.thoughtSignature ?? part?.thought_signature)) return [part];
      changed = true;
      // A thought is another model's reasoning: left out. Anything else keeps its content without the mark.
      if (part.thought === true) return [];
      const { thoughtSignature: _camel, thought_signature: _snake, ...rest } = part;
      return [rest];
    });
    if (!changed) return content;
    removed = true;
    return { ...content, parts };
  });
  return removed ? { ...body, contents: contents.filter((content) => !Array.isArray(content?.parts) || content.parts.length > 0) } : null;
}
