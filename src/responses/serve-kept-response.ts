// The stored-response endpoints for a response the gateway keeps, in OpenAI's shapes: the Response object,
// its input items as a paged list, a deletion, and the cancel refusal OpenAI gives a foreground response.
import { invalidRequest, responseNotFound } from '../gateway-errors.ts';
import type { RelayResult } from '../relay/relay-types.ts';
import type { ResponseOwners } from './response-owners.ts';
import type { StoredResponseRequest } from './stored-response-relay.ts';

const json = (body: unknown): RelayResult => ({ kind: 'buffer', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export async function serveKeptResponse(owners: ResponseOwners, request: StoredResponseRequest): Promise<RelayResult> {
  const { id, key } = request;
  // The owner was checked; the row is read again, so a response deleted or expired meanwhile is unknown.
  const response = await owners.kept.response(id, key.userId);
  if (!response) throw responseNotFound(id);
  switch (request.action) {
    case 'retrieve':
      return json(response);
    case 'input_items':
      return json(await owners.kept.inputItems(id, new URLSearchParams(request.query)));
    case 'delete':
      await owners.kept.delete(id);
      await owners.forget(id);
      return json({ id, object: 'response', deleted: true });
    case 'cancel':
      throw invalidRequest('Only responses created with background set to true can be cancelled.', null);
  }
}
