// Unused code as knip reports it (issue 27, item 6), kept in `npm test`: unused files, exports and types
// across src/, web/src/, test/, bench/ and scripts/ (knip.json names the entry points; an export loaded
// only through a dynamic import is tagged @public). The count may not grow past the threshold.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const THRESHOLD = 30;

interface KnipReport { files: string[]; issues: { file: string; exports?: { name: string }[]; types?: { name: string }[] }[] }

describe('unused code', () => {
  it(`stays at ${THRESHOLD} unused files, exports and types or fewer`, async () => {
    const run = await promisify(execFile)(join(ROOT, 'node_modules/.bin/knip'), ['--reporter', 'json', '--no-exit-code'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const report = JSON.parse(run.stdout) as KnipReport;
    const unused = [
      ...report.files,
      ...report.issues.flatMap((issue) => [...issue.exports ?? [], ...issue.types ?? []].map((item) => `${issue.file}: ${item.name}`)),
    ];
    expect(unused.length, unused.join('\n')).toBeLessThanOrEqual(THRESHOLD);
  }, 240_000);
});
