// What an endpoint makes of a validated request: the model, whether it streams, and how to relay it.
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';

export interface PreparedCall {
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  relay(deps: RelayDeps, call: RelayCall): Promise<RelayResult>;
}
