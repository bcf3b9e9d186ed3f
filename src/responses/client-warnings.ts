// What the gateway changed in a request on its way to the upstream (a tool removed, a parameter the model
// does not support dropped), told to the client in the `x-gateway-warnings` header: one entry per change,
// separated by "; ". Warnings that hold only when a translated channel answers are applied when it does.
import type { RelayResult } from '../relay/relay-types.ts';

const WARNINGS_HEADER = 'x-gateway-warnings';

export class ClientWarnings {
  private readonly always: string[] = [];
  private readonly pending: string[];
  private applied = false;

  /** `onTranslation`: warnings that hold once a translated channel answers (apply()). */
  constructor(onTranslation: string[] = []) {
    this.pending = onTranslation;
  }

  add(warning: string): void {
    this.always.push(warning);
  }

  /** The answering channel made the pending warnings true. */
  apply(): void {
    this.applied = true;
  }

  list(): string[] {
    return this.applied ? [...this.always, ...this.pending] : [...this.always];
  }

  /** The result with the header added (header values are kept to printable ASCII). */
  onto(result: RelayResult): RelayResult {
    const list = this.list();
    if (list.length === 0) return result;
    const value = list.join('; ').replace(/[^\x20-\x7e]/g, '?');
    return { ...result, headers: { ...result.headers, [WARNINGS_HEADER]: value } };
  }
}
