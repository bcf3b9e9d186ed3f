// The sign-in route must load at most 250 KB of gzipped JavaScript (issue 13): the entry chunk and every
// chunk it imports statically. Other pages, the admin pages and the charts are split off and load later.
// Reads the build that `npm test` makes first (npm run build:web).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '..', '..', 'web', 'dist');
const BUDGET_BYTES = 250 * 1024;

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

function readManifest(): Record<string, ManifestChunk> {
  try {
    return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch (error) {
    throw new Error(`web/dist has no build manifest: run \`npm run build:web\` first (${String(error)})`);
  }
}

/** The files a page load fetches before anything is lazy: the entry and its static imports, transitively. */
function staticClosure(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

describe('the dashboard bundle', () => {
  const manifest = readManifest();
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);

  it('has one entry, and the signed-in pages and the admin pages are separate chunks', () => {
    expect(entryKey).toBe('index.html');
    const lazy = manifest[entryKey!]!.dynamicImports ?? [];
    for (const page of ['src/layout/AppLayout.tsx', 'src/pages/UsagePage.tsx', 'src/pages/admin/AdminPage.tsx', 'src/pages/PlaygroundPage.tsx']) {
      expect(lazy).toContain(page);
    }
  });

  it('loads at most 250 KB of gzipped JavaScript on the sign-in route', () => {
    const files = [...staticClosure(manifest, entryKey!)].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
    const gzipped = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0);
    expect(files.length).toBeGreaterThan(0);
    expect(gzipped, `sign-in route JavaScript: ${files.join(', ')}`).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('keeps the charts library out of the sign-in route', () => {
    const files = [...staticClosure(manifest, entryKey!)].map((key) => manifest[key]!.file);
    for (const file of files) expect(readFileSync(join(dist, file), 'utf8')).not.toContain('recharts');
  });
});
