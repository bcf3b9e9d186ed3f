// Reads and validates the config file. Errors name the file, the field path and what is wrong.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { configFileSchema, type ConfigFile } from './config-file-schema.ts';
import { chatFormatsOf } from '../routing/channel-chat-format.ts';
import { getProviderEntry } from '../providers/registry.ts';

// The YAML parser (72 CommonJS modules) is needed only while a config file is parsed: it is required
// then, and its modules are dropped from require's cache afterwards, so that an idle gateway does not keep
// their code and sources for its whole life (issue 16, memory). Modules that were already cached (another
// part of the process uses `yaml`) are left alone.
function withYaml<T>(use: (yaml: typeof import('yaml')) => T): T {
  const require = createRequire(import.meta.url);
  const cachedBefore = new Set(Object.keys(require.cache));
  try {
    return use(require('yaml') as typeof import('yaml'));
  } finally {
    for (const id of Object.keys(require.cache)) if (!cachedBefore.has(id)) delete require.cache[id];
  }
}

export class ConfigFileError extends Error {
  constructor(file: string, problems: string[]) {
    super(`Config file ${file} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigFileError';
  }
}

export async function loadConfigFile(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  return parseConfigText(file, text);
}

export function parseConfigText(file: string, text: string): ConfigFile {
  const raw = withYaml(({ parse: parseYaml, YAMLParseError }) => {
    try {
      // YAML is a superset of JSON, so one parser serves both file kinds.
      return parseYaml(text, { prettyErrors: true }) as unknown;
    } catch (error) {
      const detail = error instanceof YAMLParseError ? error.message : String(error);
      throw new ConfigFileError(file, [`is not valid YAML or JSON: ${detail}`]);
    }
  });
  const parsed = configFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new ConfigFileError(file, problems);
  }
  assertReferences(file, parsed.data);
  return parsed.data;
}

/** Cross-entry checks zod cannot express: keys name declared groups, names are unique. */
function assertReferences(file: string, config: ConfigFile): void {
  const problems: string[] = [];
  const groupNames = new Set(['default', ...config.groups.map((g) => g.name)]);
  config.channels.forEach((channel, i) => {
    channel.groups.forEach((group, j) => {
      if (!groupNames.has(group)) problems.push(`channels[${i}].groups[${j}]: unknown group '${group}' (declare it under groups)`);
    });
    const chatFormats = chatFormatsOf(getProviderEntry(channel.type));
    if (channel.chat_format !== undefined && !chatFormats.includes(channel.chat_format)) {
      problems.push(`channels[${i}].chat_format: a '${channel.type}' channel serves chat in ${chatFormats.join(' or ')}, not '${channel.chat_format}'`);
    }
  });
  config.keys.forEach((key, i) => {
    if (!groupNames.has(key.group)) problems.push(`keys[${i}].group: unknown group '${key.group}' (declare it under groups)`);
  });
  for (const [section, entries] of [
    ['groups', config.groups.map((g) => g.name)],
    ['channels', config.channels.map((c) => c.name)],
    ['models', config.models.map((m) => m.id)],
    ['users', config.users.map((u) => u.name)],
    ['keys', config.keys.map((k) => `${k.user}/${k.name}`)],
  ] as const) {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (seen.has(entry)) problems.push(`${section}[${i}]: '${entry}' is declared twice`);
      seen.add(entry);
    });
  }
  if (problems.length > 0) throw new ConfigFileError(file, problems);
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}
