// Warnings logged once at start for setups that would fail later, request by request: a channel base_url
// carrying a version path (normalised, see normalize-base-url.ts) and a served model without a price
// (every call to it would be refused with 403 model_price_missing).
import type { Logger } from 'pino';
import type { ConfigFile } from './config-file-schema.ts';
import type { GatewaySnapshot } from '../gateway-state.ts';
import { isBillable } from '../metering/admission.ts';
import { DEFAULT_GROUP } from '../routing/routing-table.ts';
import { normalizeBaseUrl } from './normalize-base-url.ts';

export function logStartupWarnings(logger: Logger, config: ConfigFile | null, snapshot: GatewaySnapshot): void {
  for (const channel of config?.channels ?? []) {
    const normalized = normalizeBaseUrl(channel.type, channel.base_url ?? '');
    if (normalized.removed) {
      logger.warn({ channel: channel.name, base_url: channel.base_url, used: normalized.baseUrl }, `channel base_url ends in ${normalized.removed}; the gateway adds the version path itself, so it uses ${normalized.baseUrl}`);
    }
  }
  const unpriced = snapshot.routing.modelsForGroup(DEFAULT_GROUP).map((model) => model.id).filter((id) => !isBillable(snapshot, id));
  if (unpriced.length > 0) {
    logger.warn({ models: unpriced }, `served models without a price are refused (403 model_price_missing): ${unpriced.join(', ')}; set their prices under models, or mark them free: true`);
  }
}
