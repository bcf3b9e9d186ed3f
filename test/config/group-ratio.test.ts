// A group's ratio has one rule (src/config/config-file-schema.ts) for the config file, the admin API and
// the dashboard (issue 31): more than 0 (no free groups), at most 100, exact to a millionth. The file used
// to take 0, a free group, that the API refused; now the file is refused at start with the field named.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfigFile } from '../../src/config/load-config-file.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const ADMIN = { email: 'ratio-root@example.com', password: 'ratio root password 1' };
const REFUSED = [
  { ratio: 0, reason: 'must be more than 0 (there are no free groups; mark a model free instead)' },
  { ratio: -1, reason: 'must be more than 0 (there are no free groups; mark a model free instead)' },
  { ratio: 100.5, reason: 'must be at most 100' },
  { ratio: 0.1234567, reason: 'must be exact to a millionth (at most 6 decimals)' },
];
const ACCEPTED = [0.000001, 0.5, 1, 2.25, 100];

let dir: string;
let gateway: TestGateway;
let admin: ApiClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-group-ratio-'));
  gateway = await startTestGateway({ users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }] });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function fromConfigFile(ratio: number): Promise<string> {
  const file = join(dir, `ratio-${String(ratio)}.yaml`);
  await writeFile(file, stringify({ groups: [{ name: 'team', ratio }] }));
  try {
    const config = await loadConfigFile(file);
    return `accepted ${config.groups[0]!.ratio}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('a group ratio', () => {
  it('is refused by the config file and the admin API alike, with the same reason naming the field', async () => {
    for (const { ratio, reason } of REFUSED) {
      expect(await fromConfigFile(ratio)).toContain(`groups[0].ratio: ${reason}`);
      const answer = await admin.put('/api/admin/groups', { name: 'team', ratio });
      expect({ ratio, status: answer.status, message: answer.body.error?.message }).toEqual({ ratio, status: 400, message: expect.stringContaining(reason) });
    }
    expect((await admin.get('/api/admin/groups')).body.data.map((group: { name: string }) => group.name)).not.toContain('team');
  });

  it('is accepted by both when more than 0, at most 100 and exact to a millionth', async () => {
    for (const ratio of ACCEPTED) {
      expect(await fromConfigFile(ratio)).toBe(`accepted ${ratio}`);
      const answer = await admin.put('/api/admin/groups', { name: 'team', ratio });
      expect({ ratio, status: answer.status, stored: answer.body.ratio }).toEqual({ ratio, status: 200, stored: ratio });
    }
  });

  it('stops a gateway started with a free group in its file', async () => {
    await expect(startTestGateway({ groups: [{ name: 'free', ratio: 0 }] })).rejects.toThrow(/groups\[0\]\.ratio: must be more than 0/);
  });
});
