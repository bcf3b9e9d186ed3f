// The exchange contract (issue 27): each format declares what the pipeline must know about its requests
// (requestFacts) and how to read its answers (watch), and the pipeline resolves a chat attempt's usage in
// one place. These checks fail when a hop or metering starts reading a format's fields or resolving usage
// on its own again, and when a format's declarations disagree with what its wire says.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNames, getFormat } from '../../src/formats/index.ts';

const SRC = join(import.meta.dirname, '../../src');

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

async function filesMatching(pattern: RegExp, under = SRC): Promise<string[]> {
  const found: string[] = [];
  for (const file of await sourceFiles(under)) {
    const code = (await readFile(file, 'utf8')).split('\n').filter((line) => !/^\s*(\/\/|\*)/.test(line)).join('\n');
    if (pattern.test(code)) found.push(relative(SRC, file));
  }
  return found.sort();
}

describe('the exchange contract', () => {
  it('resolves usage in one place for chat: the attempt (embeddings, which are not chat, meter themselves)', async () => {
    expect(await filesMatching(/\bresolveUsage\(/)).toEqual(['endpoints/embeddings.ts', 'metering/resolve-usage.ts', 'relay/attempt-usage.ts']);
  });

  it('leaves every format field that bounds output to the format folders', async () => {
    const fields = /\b(max_completion_tokens|max_output_tokens|maxOutputTokens|max_tokens|inferenceConfig|candidateCount|candidate_count)\b/;
    const outside = (await filesMatching(fields)).filter((file) => !file.startsWith('formats/'));
    // Validation schemas of the routes and the stored model row name such fields as data, not to meter by them.
    expect(outside.filter((file) => file.startsWith('relay/') || file.startsWith('metering/'))).toEqual(['metering/admission.ts']);
  });

  it('reads upstream errors through the channel format on every hop: no envelope sniffing in the relay', async () => {
    expect(await filesMatching(/error\.status === 'string'|body\.error\b|\.error\?\.message/, join(SRC, 'relay'))).toEqual([]);
  });

  it.each(formatNames)('%s declares its request facts and a watcher', (name) => {
    const format = getFormat(name);
    expect(typeof format.requestFacts.outputLimit).toBe('function');
    expect(typeof format.requestFacts.promptTokens).toBe('function');
    expect(format.requestFacts.outputLimit({})).toBeUndefined();
    expect(format.requestFacts.promptTokens({})).toBe(0);
    expect(typeof format.watch).toBe('function');
  });

  it('reads each format\'s own output limit, every answer included, and nothing from another format\'s fields', () => {
    const limits = {
      'openai-chat': [{ max_completion_tokens: 100, n: 3 }, 300],
      'openai-responses': [{ max_output_tokens: 70 }, 70],
      'anthropic-messages': [{ max_tokens: 50 }, 50],
      'gemini-generate': [{ generation_config: { max_output_tokens: 20, candidate_count: 2 } }, 40],
      'bedrock-converse': [{ inferenceConfig: { maxTokens: 9 } }, 9],
    } as const;
    for (const [name, [body, limit]] of Object.entries(limits)) {
      expect(getFormat(name).requestFacts.outputLimit(body), name).toBe(limit);
      for (const other of formatNames.filter((candidate) => candidate !== name)) {
        // A body of this format states no limit in another format's terms (the hub's one exception: OpenAI's max_tokens = Anthropic's).
        if (!('max_tokens' in body)) expect(getFormat(other).requestFacts.outputLimit(body), `${other} reading ${name}`).toBeUndefined();
      }
    }
  });

  it('counts a prompt by the fields its format names', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    expect(getFormat('gemini-generate').requestFacts.promptTokens({ contents: [{ parts: [{ text }] }] })).toBeGreaterThan(150);
    // Another format's prompt field is not this format's prompt.
    expect(getFormat('gemini-generate').requestFacts.promptTokens({ messages: [{ content: text }] })).toBe(0);
    expect(getFormat('anthropic-messages').requestFacts.promptTokens({ system: text, messages: [] })).toBeGreaterThan(150);
    expect(getFormat('openai-responses').requestFacts.promptTokens({ instructions: text })).toBeGreaterThan(150);
  });
});
