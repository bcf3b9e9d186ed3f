// The one place a chat attempt's usage is resolved. A hop or a format's watcher only reads what the upstream
// reported (unknown where the wire says nothing) and what was delivered; what the upstream left unknown is
// counted here, from the client's request (its format's request facts) and the delivered output, capped by
// the output limit of the body that was actually sent.
import { getFormat } from '../formats/index.ts';
import type { HubUsage } from '../hub/hub-response.ts';
import { resolveUsage } from '../metering/resolve-usage.ts';
import type { Usage } from '../metering/usage.ts';
import type { RelayCall } from './relay-types.ts';

export class AttemptUsage {
  private readonly call: RelayCall;
  /** The output limit of the body sent, as its writer read it (UpstreamCallShape.outputLimit). */
  private readonly sentLimit: number | null | undefined;

  constructor(call: RelayCall, sentLimit: number | null | undefined) {
    this.call = call;
    this.sentLimit = sentLimit;
  }

  /** The usage an answer is billed by (and a translated client is shown): reported where known, else counted. */
  resolve(reported: HubUsage | null | undefined, outputTokens: () => number): Usage {
    return resolveUsage(reported, { prompt: this.promptTokens, output: outputTokens, outputLimit: this.outputLimit });
  }

  private readonly promptTokens = (): number => getFormat(this.call.inboundFormat).requestFacts.promptTokens(this.call.body);

  /**
   * The limit of the body sent: the one its writer read (a translation's, which can differ from the client's:
   * Anthropic requires max_tokens), or the client's own when the client's body went upstream.
   */
  private readonly outputLimit = (): number | undefined => {
    const stated = this.sentLimit;
    return stated === undefined ? getFormat(this.call.inboundFormat).requestFacts.outputLimit(this.call.body) : (stated ?? undefined);
  };
}
