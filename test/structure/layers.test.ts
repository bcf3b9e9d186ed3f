// The documented layers (docs/architecture.md) and zero import cycles, kept by dependency-cruiser's rules
// (.dependency-cruiser.cjs) over src/. A fixture with a type-only cycle and a hub module importing a format
// shows the rules see what they are meant to see.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const run = promisify(execFile);

interface Violation { rule: { name: string }; from: string; to: string }

async function violations(cwd: string): Promise<Violation[]> {
  // Run by this Node (24), not whichever `node` the PATH names first.
  const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const { stdout } = await run(process.execPath, [bin, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the layers', () => {
  it('hold in src/: no import cycles, and no layer imports what the architecture says it does not know', async () => {
    const found = await violations(ROOT);
    expect(found.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)).toEqual([]);
  }, 120_000);

  it('are checked for real: a type-only cycle and a hub module importing a format are both refused', async () => {
    const found = await violations(join(ROOT, 'test/structure/__fixtures__/cycle'));
    const rules = new Set(found.map((violation) => violation.rule.name));
    expect(rules).toEqual(new Set(['no-circular', 'hub-is-pure']));
  }, 120_000);
});
