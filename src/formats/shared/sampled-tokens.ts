// A prompt's token count from its texts, with bounded work: tokenising costs ~0.1-0.25 ms per KB on the event
// loop, so beyond TOKENIZED_SAMPLE_CHARS characters a sample that long is tokenised and scaled (a 20 MB
// prompt costs ~10 ms of CPU instead of seconds). Used where a count is shown before the upstream's own
// (count_tokens estimates, a translated stream's message_start), never for billing.
import { estimateTextTokens } from '../../metering/estimate-tokens.ts';

const TOKENIZED_SAMPLE_CHARS = 65_536;

export function sampledTokens(texts: readonly string[]): number {
  const pieces = texts.map((text) => text.trim()).filter(Boolean);
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (length <= TOKENIZED_SAMPLE_CHARS) return pieces.reduce((sum, piece) => sum + estimateTextTokens(piece), 0);
  const sample = pieces.join(' ').slice(0, TOKENIZED_SAMPLE_CHARS);
  return Math.ceil(estimateTextTokens(sample) * (length / sample.length));
}
