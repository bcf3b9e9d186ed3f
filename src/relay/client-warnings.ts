// What the gateway changed in a request on its way to the upstream (a tool removed, a parameter the model
// does not support dropped, a setting the channel's provider takes differently), told to the client in the
// `x-gateway-warnings` header on every chat route: one entry per change, separated by "; ". Some changes
// hold whatever answers (a model's declared capabilities); others only when a given channel answers (what a
// translation into its format left out): the hop that answers reports those (answered()).
import type { HubWarning } from '../hub/hub-warnings.ts';
import type { RelayResult } from './relay-types.ts';

export const WARNINGS_HEADER = 'x-gateway-warnings';

/**
 * The header stays well under what clients read (Node's and undici's default is 16 KB for all headers): a
 * long conversation can make one warning per old turn, so like warnings are grouped and the list is cut.
 */
const MAX_HEADER_CHARS = 2000;
const FEATURES_PER_GROUP = 3;

export class ClientWarnings {
  private readonly always: string[] = [];
  private answer: readonly string[] = [];

  /** A change that holds whichever channel answers. */
  add(warning: string): void {
    this.always.push(warning);
  }

  /** The changes the answering channel's request carried (a translated hop's, or a passthrough's). */
  answered(warnings: readonly string[]): void {
    this.answer = warnings;
  }

  list(): string[] {
    return [...this.always, ...this.answer];
  }

  /** The result with the header added (header values are kept to printable ASCII). */
  onto(result: RelayResult): RelayResult {
    const list = this.list();
    if (list.length === 0) return result;
    return { ...result, headers: { ...result.headers, [WARNINGS_HEADER]: headerValue(list) } };
  }
}

function headerValue(list: readonly string[]): string {
  const distinct = new Set(list);
  let value = '';
  let shown = 0;
  for (const warning of distinct) {
    const next = value === '' ? warning : `${value}; ${warning}`;
    if (next.length > MAX_HEADER_CHARS) break;
    value = next;
    shown += 1;
  }
  const left = distinct.size - shown;
  if (left > 0) value += `${value === '' ? '' : '; '}${left} more change(s), in the gateway's log`;
  return value.replace(/[^\x20-\x7e]/g, '?');
}

/**
 * A conversion's warnings as the client reads them: `<field> dropped: <why>` or `<field> changed: <why>`.
 * Warnings with the same reason are one entry naming their fields (a few, then how many more), so a
 * conversation of a hundred turns gives one line, not a hundred.
 */
export function describeHubWarnings(warnings: readonly HubWarning[]): string[] {
  const groups = new Map<string, string[]>();
  for (const warning of warnings) {
    const key = `${warning.type === 'dropped' ? 'dropped' : 'changed'}: ${warning.detail}`;
    const features = groups.get(key);
    if (features) features.push(warning.feature);
    else groups.set(key, [warning.feature]);
  }
  return [...groups].map(([reason, features]) => {
    const named = [...new Set(features)];
    const shown = named.slice(0, FEATURES_PER_GROUP).join(', ');
    const more = named.length > FEATURES_PER_GROUP ? ` and ${named.length - FEATURES_PER_GROUP} more` : '';
    return `${shown}${more} ${reason}`;
  });
}
