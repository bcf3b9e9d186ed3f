// One streamed attempt passed through and watched by its format's AnswerWatcher: the watcher's text for the
// client, its reading for the bill. Used by the chat passthrough hop and by the Responses endpoint's.
import type { AnswerReading, AnswerWatcher, FormatConverters } from '../../hub/hub-format.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import type { Usage } from '../../metering/usage.ts';
import type { GatewayError } from '../../gateway-errors.ts';
import type { StreamConverter } from '../relay-hop.ts';
import type { AttemptUsage } from '../attempt-usage.ts';
import { formatSseEvent } from '../sse-pump.ts';

/**
 * One streamed attempt: the watcher's text for the client, its reading for the bill. The usage is resolved
 * again only after new events (a usage event written at the end and the record read the same figures).
 */
export class WatchedStream implements StreamConverter {
  private readonly format: FormatConverters;
  private readonly attemptUsage: AttemptUsage;
  private readonly watcher: AnswerWatcher;
  private events = 0;
  private resolvedAt = -1;
  private resolved: Usage | null = null;

  constructor(format: FormatConverters, attemptUsage: AttemptUsage, watcherFor: (resolved: () => Usage) => AnswerWatcher) {
    this.format = format;
    this.attemptUsage = attemptUsage;
    this.watcher = watcherFor(() => this.usage());
  }

  event(event: SseEvent): string {
    this.events++;
    return this.watcher.event(event);
  }

  end(): string {
    return this.watcher.end();
  }

  failure(error: GatewayError): string {
    const event = this.format.hubErrorToStreamEvent(error);
    return formatSseEvent(event.data, event.event);
  }

  usage(): Usage {
    if (this.resolved === null || this.resolvedAt !== this.events) {
      const watcher = this.watcher;
      this.resolved = this.attemptUsage.resolve(watcher.reported(), () => watcher.outputTokens());
      this.resolvedAt = this.events;
    }
    return this.resolved;
  }

  delivered(): { text: string; toolCalls: boolean } {
    return this.watcher.delivered();
  }

  reading(): AnswerReading {
    return this.watcher.reading();
  }
}
