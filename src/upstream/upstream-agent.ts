// Pooled undici Agents for every upstream call: keep-alive connections per origin, no fetch per call.
// One Agent per distinct (connect timeout, HTTP version setting) pair (channels may set their own), created on
// first use. A channel's `http2` setting has three states: true (forHttp2), false (forHttp1Only), absent
// (forConnectTimeout, undici's default); agentForChannel picks.
import { Agent } from './undici-parts.ts';

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Largest non-streamed upstream answer read into memory (UPSTREAM_BODY_LIMIT): 100 embeddings of 3,072
 * floats as JSON are about 6 MB, ten 1024² images as base64 about 20 MB. */
const DEFAULT_UPSTREAM_BODY_LIMIT = 64 * 1024 * 1024;
/**
 * Streams one HTTP/2 connection carries before undici opens another (the lower of this and the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS). undici's own default of 100, kept on purpose: 10,000 streams then take
 * 100 connections (1 % of the file descriptors HTTP/1.1 needs), and one connection's flow-control window
 * and head-of-line blocking on a lost packet are shared by 100 streams at most, not thousands.
 */
export const HTTP2_STREAMS_PER_CONNECTION = 100;

export interface UpstreamAgents {
  /**
   * The default agent whose connect timeout is the channel's, or the default: HTTP/1.1 to an http origin;
   * to an https one undici 8 also offers h2 by ALPN (after http/1.1), which the server may choose.
   */
  forConnectTimeout(ms: number | undefined): Agent;
  /**
   * The HTTP/2 agent (channel setting `http2: true`) for that connect timeout: an https origin is asked
   * for h2 first by ALPN (HTTP/1.1 when the server does not offer it); an http origin gets h2c with prior
   * knowledge (the server must speak it: there is no upgrade from HTTP/1.1).
   */
  forHttp2(ms: number | undefined): Agent;
  /**
   * The HTTP/1.1-only agent (channel setting `http2: false`) for that connect timeout: ALPN offers
   * http/1.1 alone, so an https server cannot choose h2 (for upstreams or proxies that misbehave on h2).
   */
  forHttp1Only(ms: number | undefined): Agent;
  /** Largest whole (non-streamed) upstream body read into memory; larger ones fail the call. */
  readonly maxWholeBodyBytes: number;
  close(): Promise<void>;
}

/** `connectionsPerOrigin`: 0 for no cap (UPSTREAM_CONNECTIONS). 10,000 concurrent streams to one upstream
 * need 10,000 connections: the old cap of 512 held every stream past the 512th until another ended. */
export function createUpstreamAgents(connectionsPerOrigin = 0, maxWholeBodyBytes = DEFAULT_UPSTREAM_BODY_LIMIT): UpstreamAgents {
  const agents = new Map<number, Agent>();
  const http2Agents = new Map<number, Agent>();
  const http1OnlyAgents = new Map<number, Agent>();
  // A pool smaller than the client concurrency costs throughput; idle sockets are cheap.
  const pooling = { connections: connectionsPerOrigin > 0 ? connectionsPerOrigin : null, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 };
  return {
    maxWholeBodyBytes,
    forConnectTimeout(ms = DEFAULT_CONNECT_TIMEOUT_MS) {
      let agent = agents.get(ms);
      if (!agent) {
        agent = new Agent({ ...pooling, connect: { timeout: ms } });
        agents.set(ms, agent);
      }
      return agent;
    },
    forHttp2(ms = DEFAULT_CONNECT_TIMEOUT_MS) {
      let agent = http2Agents.get(ms);
      if (!agent) {
        // `useH2c` only acts on http: origins (a plain socket taken as h2); `preferH2` only on https: ones
        // (ALPN offers h2 first). The Agent hands both to each origin's Pool and its connector, although its
        // types do not list `useH2c` (undici 8.12).
        agent = new Agent({
          ...pooling,
          allowH2: true,
          useH2c: true,
          maxConcurrentStreams: HTTP2_STREAMS_PER_CONNECTION,
          connect: { timeout: ms, preferH2: true },
        } as ConstructorParameters<typeof Agent>[0]);
        http2Agents.set(ms, agent);
      }
      return agent;
    },
    forHttp1Only(ms = DEFAULT_CONNECT_TIMEOUT_MS) {
      let agent = http1OnlyAgents.get(ms);
      if (!agent) {
        // undici's connector then lists only http/1.1 in ALPN (and never speaks h2 on a plain socket).
        agent = new Agent({ ...pooling, allowH2: false, connect: { timeout: ms } });
        http1OnlyAgents.set(ms, agent);
      }
      return agent;
    },
    async close() {
      await Promise.all([...agents.values(), ...http2Agents.values(), ...http1OnlyAgents.values()].map((agent) => agent.close()));
    },
  };
}

/** The agent a channel's `http2` setting asks for: true → HTTP/2, false → HTTP/1.1 only, absent → undici's default. */
export function agentForChannel(agents: UpstreamAgents, channel: { http2?: boolean; timeouts: { connectMs?: number } }): Agent {
  const ms = channel.timeouts.connectMs;
  if (channel.http2 === undefined) return agents.forConnectTimeout(ms);
  return channel.http2 ? agents.forHttp2(ms) : agents.forHttp1Only(ms);
}
