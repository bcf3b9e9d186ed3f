// One pooled undici Agent for every upstream call: keep-alive connections per origin, no fetch per call.
import { Agent } from 'undici';

export interface UpstreamAgentOptions {
  /** Connections per origin; smaller than the client concurrency costs throughput. */
  connectionsPerOrigin?: number;
  connectTimeoutMs?: number;
}

export function createUpstreamAgent(options: UpstreamAgentOptions = {}): Agent {
  return new Agent({
    connections: options.connectionsPerOrigin ?? 512,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  });
}
