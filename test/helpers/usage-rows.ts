// What the money tests read back after a call: a user's wallet and a key's last usage-log row, each once the
// gateway's queued usage has been written (the recorder flushes first, so the reading includes the call).
import type { TestGateway } from './test-gateway.ts';

/** The user's balance in micro-USD. */
export async function flushedBalance(gateway: TestGateway, userName: string): Promise<number> {
  await gateway.recorder.flush();
  const user = await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', userName).executeTakeFirstOrThrow();
  return Number(user.balance_micros);
}

/** The newest usage-log row of the key. */
export async function lastUsageRow(gateway: TestGateway, keyName: string) {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', keyName).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}
