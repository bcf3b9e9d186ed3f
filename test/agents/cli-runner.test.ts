// The CLI runner's own promises, checked with plain processes: the environment is the sandbox's alone, a
// run that outlives its timeout is killed with everything it started, and a connection outside 127.0.0.1
// made through the proxy variables lands in the trap, refused and recorded.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentSandbox, runCli, type AgentSandbox } from './cli-runner.ts';

let sandbox: AgentSandbox;
beforeAll(async () => {
  sandbox = await createAgentSandbox('runner');
});
afterAll(() => sandbox?.dispose());

/** True while the process exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('runCli', () => {
  it('runs in the work folder with the sandbox HOME and only the variables it is given', async () => {
    process.env.AGENTS_RUNNER_MARKER = 'from-the-test-process';
    try {
      const run = await runCli({ command: '/bin/sh', args: ['-c', 'echo "$HOME|$PWD|${AGENTS_RUNNER_MARKER:-unset}|$GIVEN"; echo oops >&2; exit 3'], sandbox, env: { GIVEN: 'yes' }, timeoutMs: 10_000 });
      expect(run.stdout).toBe(`${sandbox.home}|${sandbox.work}|unset|yes\n`);
      expect(run.stderr).toBe('oops\n');
      expect(run).toMatchObject({ exitCode: 3, timedOut: false, outsideAttempts: [] });
    } finally {
      delete process.env.AGENTS_RUNNER_MARKER;
    }
  });

  it('kills the whole process group when the timeout passes', async () => {
    const run = await runCli({ command: '/bin/sh', args: ['-c', 'sleep 60 & echo $!; wait'], sandbox, timeoutMs: 500 });
    expect(run.timedOut).toBe(true);
    expect(run.signal).toBe('SIGKILL');
    const background = Number(run.stdout.trim());
    expect(background).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(running(background)).toBe(false);
  });

  it('sends outside connections to the trap, which refuses and records them; 127.0.0.1 is not proxied', async () => {
    const local = createServer((_request, response) => response.end('local answer'));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}/`;
      const run = await runCli({ command: '/bin/sh', args: ['-c', `curl -sS ${localUrl}; echo; curl -sS -o /dev/null -m 10 https://example.invalid/`], sandbox, timeoutMs: 20_000 });
      expect(run.stdout).toBe('local answer\n');
      expect(run.exitCode).not.toBe(0);
      expect(run.outsideAttempts).toEqual(['example.invalid:443']);
    } finally {
      local.close();
    }
  });
});
