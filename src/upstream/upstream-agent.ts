// Pooled undici Agents for every upstream call: keep-alive connections per origin, no fetch per call.
// One Agent per distinct connect timeout (channels may set their own), created on first use.
import { Agent } from './undici-parts.ts';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Largest non-streamed upstream answer read into memory (UPSTREAM_BODY_LIMIT): 100 embeddings of 3,072
 * floats as JSON are about 6 MB, ten 1024² images as base64 about 20 MB. */
export const DEFAULT_UPSTREAM_BODY_LIMIT = 64 * 1024 * 1024;

export interface UpstreamAgents {
  /** The agent whose connect timeout is the channel's, or the default. */
  forConnectTimeout(ms: number | undefined): Agent;
  /** Largest whole (non-streamed) upstream body read into memory; larger ones fail the call. */
  readonly maxWholeBodyBytes: number;
  close(): Promise<void>;
}

/** `connectionsPerOrigin`: 0 for no cap (UPSTREAM_CONNECTIONS). 10,000 concurrent streams to one upstream
 * need 10,000 connections: the old cap of 512 held every stream past the 512th until another ended. */
export function createUpstreamAgents(connectionsPerOrigin = 0, maxWholeBodyBytes = DEFAULT_UPSTREAM_BODY_LIMIT): UpstreamAgents {
  const agents = new Map<number, Agent>();
  return {
    maxWholeBodyBytes,
    forConnectTimeout(ms = DEFAULT_CONNECT_TIMEOUT_MS) {
      let agent = agents.get(ms);
      if (!agent) {
        // A pool smaller than the client concurrency costs throughput; idle sockets are cheap.
        agent = new Agent({ connections: connectionsPerOrigin > 0 ? connectionsPerOrigin : null, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connect: { timeout: ms } });
        agents.set(ms, agent);
      }
      return agent;
    },
    async close() {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
