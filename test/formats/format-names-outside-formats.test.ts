// Nothing outside src/formats/ decides by a format's name (issue 11): every such decision reads data the
// format declares (src/hub/hub-format.ts). A route or a provider may say which format it speaks
// (`inboundFormat: 'openai-chat'`, `chatFormat: 'gemini-generate'`); comparing against a name, switching
// on it, or keying a table or an index by it is what this test refuses.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNames } from '../../src/formats/index.ts';

const SRC = join(import.meta.dirname, '../../src');
const FORMATS_DIR = join(SRC, 'formats');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quoted = `(['"\`])(?:${formatNames.map(escape).join('|')})\\1`;
/** A name compared with ==/!=, switched on, keyed or indexed by, or looked for in a list. */
const DECISIONS = [
  new RegExp(`[=!]==?\\s*${quoted}`),
  new RegExp(`${quoted}\\s*[=!]==?`),
  new RegExp(`case\\s+${quoted}\\s*:`),
  new RegExp(`${quoted}\\s*:`),
  new RegExp(`[\\w)\\]]\\s*\\[\\s*${quoted}\\s*\\]`),
  new RegExp(`\\.(?:includes|has|indexOf)\\(\\s*${quoted}\\s*\\)`),
];

function formatNameDecisions(source: string): string[] {
  return source.split('\n').filter((line) => !line.trimStart().startsWith('//') && !line.trimStart().startsWith('*') && DECISIONS.some((pattern) => pattern.test(line)));
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== FORMATS_DIR) files.push(...await sourceFiles(path));
    } else if (entry.name.endsWith('.ts')) {
      files.push(path);
    }
  }
  return files;
}

describe('format names outside src/formats/', () => {
  it('recognises each way of deciding by a name, and not a declaration', () => {
    for (const line of [
      "if (channel.provider.chatFormat === 'openai-chat') {",
      "const same = 'gemini-generate' !== format;",
      "    case 'anthropic-messages':",
      "const table = { 'openai-responses': read };",
      "request.extensions['openai-chat']",
      "if (formats.includes(\"anthropic-messages\")) {",
    ]) expect(formatNameDecisions(line), line).toEqual([line]);
    for (const line of [
      "  chatFormat: 'openai-chat',",
      "relayRoute(app, deps, { url: '/v1/messages', inboundFormat: 'anthropic-messages', prepare });",
      "  app.get('/v1beta/models', { config: { errorFormat: 'gemini-generate' } }, list);",
      "// was: channel.provider.chatFormat === 'openai-chat'",
      "if (channel.chatFormat === call.inboundFormat) {",
      "  otherChatFormats: ['openai-responses'],",
    ]) expect(formatNameDecisions(line), line).toEqual([]);
  });

  it('finds none in src/ outside src/formats/', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      for (const line of formatNameDecisions(await readFile(file, 'utf8'))) found.push(`${relative(SRC, file)}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });
});
