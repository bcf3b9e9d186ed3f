// Sequential batches of the benchmark's chat call (BENCH_CHAT_BODY), 8 at a time, each required to answer
// 200: the fixed workload of the callgrind and allocation tools (bench/ab-instructions.ts, allocation-sites.ts).
import { BENCH_CHAT_BODY } from './bench-constants.ts';

export async function sendChatCalls(url: string, key: string, count: number): Promise<void> {
  for (let sent = 0; sent < count; sent += 8) {
    await Promise.all(Array.from({ length: Math.min(8, count - sent) }, async () => {
      const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: BENCH_CHAT_BODY });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
    }));
  }
}
