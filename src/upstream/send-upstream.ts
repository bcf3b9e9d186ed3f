// One upstream HTTP call through the pooled agent, with the channel's timeouts.
import type { Agent, Dispatcher } from 'undici';
import type { RoutedChannel } from '../routing/routing-table.ts';

export const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export interface UpstreamRequest {
  channel: RoutedChannel;
  /** Path below the channel's base URL, with query. */
  path: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
}

export function sendUpstream(agent: Agent, request: UpstreamRequest): Promise<Dispatcher.ResponseData> {
  const { channel } = request;
  return agent.request({
    origin: channel.origin,
    path: channel.basePath + request.path,
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body ?? null,
    signal: request.signal,
    headersTimeout: channel.timeouts.headersMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    // Between body chunks: a stalled stream fails instead of hanging the client forever.
    bodyTimeout: channel.timeouts.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  });
}
