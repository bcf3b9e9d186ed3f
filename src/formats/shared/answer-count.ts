// The field a request asks for several answers with (OpenAI chat `n`, Gemini `candidateCount`), read as a
// count. Bodies are validated before this is read; anything that is not a whole number above 1 asks for one.

export function answerCount(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 1 ? value : 1;
}
