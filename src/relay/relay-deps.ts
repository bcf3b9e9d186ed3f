// What the relay needs from the rest of the gateway, passed in so tests and the app wire it the same way.
import type { Agent } from 'undici';
import type { Logger } from 'pino';
import type { GatewayState } from '../gateway-state.ts';
import type { UsageRecorder } from '../metering/usage-recorder.ts';
import type { GatewayMetrics } from '../http/metrics.ts';

export interface RelayDeps {
  agent: Agent;
  state: GatewayState;
  recorder: UsageRecorder;
  logger: Logger;
  metrics: GatewayMetrics;
}
