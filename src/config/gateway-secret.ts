// GATEWAY_SECRET from the environment, or one generated once and kept in the data directory.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function resolveGatewaySecret(fromEnv: string | undefined, dataDir: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'gateway-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // 'wx' fails if another process created it first; then read theirs so both agree.
  try {
    await writeFile(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch {
    return (await readFile(file, 'utf8')).trim();
  }
}
