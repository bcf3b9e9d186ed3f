// The catalogues stay whole: every key the code names exists in English, Chinese has exactly English's keys
// (the compiler checks the shape too), and no string is left empty or untranslated-by-copy.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { enAdmin } from './en-admin.ts';
import { zhCN } from './zh-CN.ts';

function leaves(tree: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of leaves(value as object, path)) found.set(inner, text);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

// The admin pages' English loads with their chunk (AdminPage.tsx); here it is part of the whole.
const english = leaves({ ...en, admin: enAdmin });
const chinese = leaves(zhCN);

describe('the translation catalogues', () => {
  it('have the same keys in English and Chinese, none empty', () => {
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of [...english, ...chinese]) expect(text.trim(), key).not.toBe('');
  });

  it('every key the code names literally is in English', () => {
    const root = join(import.meta.dirname, '..');
    const named = new Set<string>();
    for (const file of sourceFiles(root)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) named.add(match[1]!);
      for (const match of text.matchAll(/i18nKey="([a-zA-Z0-9_.]+)"/g)) named.add(match[1]!);
    }
    expect(named.size).toBeGreaterThan(50);
    // A plural key is named once and stored as key_one, key_other.
    expect([...named].filter((key) => !english.has(key) && !english.has(`${key}_other`))).toEqual([]);
  });

  it('every placeholder of an English string is kept in its Chinese string', () => {
    for (const [key, text] of english) {
      const placeholders = (value: string) => [...value.matchAll(/\{\{(\w+)\}\}|<(\w+)>/g)].map((match) => match[0]).sort();
      expect(placeholders(chinese.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });
});
