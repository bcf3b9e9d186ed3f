// Every relative link in README.md and docs/ (files, directories, and #anchors to a heading) must point to
// something that exists, so moving a section cannot leave a reader at a dead link. Links to other sites are
// not fetched. Anchors follow GitHub's heading slugs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function proseOf(markdown: string): string {
  return markdown
    .split(/^```.*$/m)
    .filter((_, index) => index % 2 === 0)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for each heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of proseOfHeadings(markdown)) {
    const slug = heading.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function proseOfHeadings(markdown: string): RegExpMatchArray[] {
  const outsideFences = markdown.split(/^```.*$/m).filter((_, index) => index % 2 === 0).join('\n');
  return [...outsideFences.matchAll(/^#{1,6} +(.+?) *#*$/gm)];
}

/** Each relative link of one file that points nowhere, as "file: target". */
function deadLinks(file: string, markdown: string): string[] {
  const dead: string[] = [];
  for (const match of proseOf(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const where = `${relative(root, file)}: ${target}`;
    if (path === '') {
      if (!headingAnchors(markdown).has(anchor ?? '')) dead.push(`${where} (no such heading)`);
      continue;
    }
    const resolved = join(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      dead.push(where);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) dead.push(`${where} (no such heading)`);
    }
  }
  return dead;
}

describe('documentation links', () => {
  const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

  it('every relative link and anchor in README.md and docs/ points to something that exists', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => deadLinks(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('catches a missing file, a missing heading and a bad anchor in the same file, and ignores code', () => {
    const file = join(root, 'docs', 'example.md');
    const sample = [
      '## Real heading',
      '[ok](#real-heading) [ok](api.md#responses-state) [ok](decisions/) [ok](https://example.com/x)',
      '[gone](no-such-file.md) [gone](api.md#no-such-heading) [gone](#nowhere)',
      '`[not a link](missing.md)`',
      '```',
      '[not a link either](missing.md)',
      '```',
    ].join('\n');
    expect(deadLinks(file, sample)).toEqual([
      'docs/example.md: no-such-file.md',
      'docs/example.md: api.md#no-such-heading (no such heading)',
      'docs/example.md: #nowhere (no such heading)',
    ]);
  });
});
