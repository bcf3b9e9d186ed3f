// A request for one stored response (GET, DELETE, input_items, cancel), as the route hands it on.
import type { CachedKey } from '../accounts/key-index.ts';

export type StoredResponseAction = 'retrieve' | 'delete' | 'input_items' | 'cancel';

export interface StoredResponseRequest {
  key: CachedKey;
  id: string;
  action: StoredResponseAction;
  /** The client's query string without '?' (pagination, include[]), passed on as it is. */
  query: string;
  signal: AbortSignal;
}
