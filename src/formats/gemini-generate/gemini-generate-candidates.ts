// Gemini's several candidates (generationConfig.candidateCount): how many a request asks for, and the text
// of those the hub reading leaves out. responseToHub and the stream machine read the first candidate of an
// answer or chunk only; a Gemini channel passed through delivers them all, so when it reports no usage the
// rest are counted from here.
import type { SeveralAnswers } from '../../hub/hub-format.ts';
import { answerCount } from '../shared/answer-count.ts';

interface Part { text?: unknown; functionCall?: { name?: unknown; args?: unknown } }
interface Answer { candidates?: { content?: { parts?: Part[] } }[] }

export const geminiCandidates: SeveralAnswers = {
  param: 'generationConfig.candidateCount',
  asked(body) {
    // Google's JSON mapping takes the proto's snake_case names as well.
    const config = (body.generationConfig ?? body.generation_config) as Record<string, unknown> | undefined;
    return config && typeof config === 'object' ? answerCount(config.candidateCount ?? config.candidate_count) : 1;
  },
  laterAnswersText(json) {
    const candidates = (json as Answer | null)?.candidates;
    if (!Array.isArray(candidates)) return '';
    let text = '';
    // By position, as the readers of the first take candidates[0], whatever its index: a chunk may carry
    // some candidates and not others.
    for (let i = 1; i < candidates.length; i++) {
      for (const part of candidates[i]?.content?.parts ?? []) {
        if (typeof part.text === 'string') text += part.text;
        if (part.functionCall) text += String(part.functionCall.name ?? '') + JSON.stringify(part.functionCall.args ?? {});
      }
    }
    return text;
  },
};
