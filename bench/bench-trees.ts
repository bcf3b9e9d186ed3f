// A tree to benchmark, named by a git revision or a directory. A revision is unpacked (`git archive`) into
// a temporary directory with this checkout's node_modules and built dashboard linked, so it runs exactly as
// a checkout of that commit would (its own bench/serve-gateway.ts and `npm start` flags); a directory is used
// as it is.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
let work: string | null = null;

export function treeFor(target: string): string {
  if (existsSync(target)) return resolve(target);
  work ??= mkdtempSync(join(tmpdir(), 'bench-trees-'));
  const dir = join(work, target.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir);
  execFileSync('sh', ['-c', `git -C "${root}" archive "${target}" | tar -x -C "${dir}"`]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The dashboard's routes are part of the process (memory): the same build as this checkout's, if any.
  if (existsSync(join(root, 'web', 'dist')) && !existsSync(join(dir, 'web', 'dist'))) symlinkSync(join(root, 'web', 'dist'), join(dir, 'web', 'dist'));
  return dir;
}
