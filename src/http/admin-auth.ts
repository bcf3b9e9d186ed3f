// Administration endpoints accept the API key of a user whose role is admin.
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../gateway-errors.ts';
import type { GatewayState } from '../gateway-state.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import { authenticateRequest } from './authenticate.ts';

export function requireAdmin(state: GatewayState, request: FastifyRequest): CachedKey {
  const key = authenticateRequest(state, request);
  if (key.userRole !== 'admin') {
    throw new GatewayError(403, 'permission_error', 'GW_ERR_ADMIN_ONLY', { message: 'This endpoint is for administrators.', code: 'admin_only' });
  }
  return key;
}
