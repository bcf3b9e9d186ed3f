// Gemini's search grounding (a candidate's `groundingMetadata`, from the googleSearch tool) as the hub's
// hosted web search: the queries it ran as a server-tool call, the pages it used (groundingChunks[].web) as
// the call's result, and its groundingSupports as citations on the answer's text. Segment offsets are UTF-8
// byte offsets into the text (https://ai.google.dev/api/generate-content#Segment); the hub's are UTF-16.
// Google bills grounding per search query on Gemini 3 (per grounded prompt before it): the queries are
// counted as the call's searches.
import type { HubCitation } from '../../hub/hub-request.ts';
import type { HubServerToolCallPart, HubServerToolResultPart, HubWebSource } from '../../hub/hub-response.ts';

interface GeminiGrounding {
  call: HubServerToolCallPart;
  result: HubServerToolResultPart;
  /** Citations with spans in UTF-16 offsets of the text they were read against. */
  citations: HubCitation[];
  searches: number;
}

type Obj = Record<string, unknown>;
const asObject = (value: unknown): Obj | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Obj : undefined);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The grounding of one candidate, read against `text` (the answer text its segments count in); undefined when none. */
export function geminiGroundingToHub(metadata: unknown, text: string, newCallId: () => string): GeminiGrounding | undefined {
  const grounding = asObject(metadata);
  if (!grounding) return undefined;
  const queries = asArray(grounding.webSearchQueries).filter((q): q is string => typeof q === 'string');
  const chunks = asArray(grounding.groundingChunks).map((chunk) => asObject(asObject(chunk)?.web));
  const sources: HubWebSource[] = [];
  for (const web of chunks) {
    if (typeof web?.uri !== 'string') continue;
    sources.push({ url: web.uri, ...(typeof web.title === 'string' ? { title: web.title } : {}) });
  }
  if (queries.length === 0 && sources.length === 0) return undefined;
  const bytes = Buffer.from(text, 'utf8');
  const toChars = (byteOffset: number) => bytes.subarray(0, Math.max(0, Math.min(byteOffset, bytes.length))).toString('utf8').length;
  const citations: HubCitation[] = [];
  for (const support of asArray(grounding.groundingSupports)) {
    const s = asObject(support);
    const segment = asObject(s?.segment);
    if (!segment) continue;
    const start = toChars(typeof segment.startIndex === 'number' ? segment.startIndex : 0);
    const end = toChars(typeof segment.endIndex === 'number' ? segment.endIndex : bytes.length);
    for (const index of asArray(s?.groundingChunkIndices)) {
      const web = typeof index === 'number' ? chunks[index] : undefined;
      if (typeof web?.uri !== 'string') continue;
      citations.push({
        url: web.uri, startIndex: start, endIndex: end,
        ...(typeof web.title === 'string' ? { title: web.title } : {}),
        ...(typeof segment.text === 'string' ? { citedText: segment.text } : {}),
      });
    }
  }
  const callId = newCallId();
  return {
    call: { type: 'server-tool-call', id: callId, tool: 'web-search', queries },
    result: { type: 'server-tool-result', callId, tool: 'web-search', sources },
    citations,
    searches: Math.max(queries.length, 1),
  };
}
