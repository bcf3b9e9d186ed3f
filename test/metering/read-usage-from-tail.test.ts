// Reading usage from the end of an answer without parsing the whole body.
import { expect, it } from 'vitest';
import { readUsageObjectFromTail } from '../../src/metering/read-usage-from-tail.ts';

it('finds the last usage object, nested braces and strings included', () => {
  const body = JSON.stringify({ choices: [{ message: { content: 'a "usage": {fake}' } }], usage: { prompt_tokens: 3, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1 } } });
  expect(readUsageObjectFromTail(body)).toEqual({ prompt_tokens: 3, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1 } });
  expect(readUsageObjectFromTail('{"usage" :\n {"x": 1}}')).toEqual({ x: 1 });
});

it('returns null when usage is null, absent or cut off', () => {
  expect(readUsageObjectFromTail('{"usage": null, "other": {"a": 1}}')).toBeNull();
  expect(readUsageObjectFromTail('{"choices": []}')).toBeNull();
  expect(readUsageObjectFromTail('{"usage": {"prompt_tokens": 3')).toBeNull();
});
