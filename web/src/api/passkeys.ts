// Passkeys in the browser (@simplewebauthn/browser): the gateway's options go to navigator.credentials,
// and the authenticator's answer goes back to the gateway, which checks it.
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { api } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

/** Signs in with a passkey the browser holds for this site; answers what sign-in answers. */
export async function signInWithPasskey() {
  const options = await api.post<ApiAnswer<'/api/auth/passkey/options', 'post'>>('/api/auth/passkey/options');
  const response = await startAuthentication({ optionsJSON: options });
  return api.post<ApiAnswer<'/api/auth/passkey', 'post'>>('/api/auth/passkey', { response });
}

export async function addPasskey(name: string) {
  const options = await api.post<ApiAnswer<'/api/me/passkeys/options', 'post'>>('/api/me/passkeys/options');
  const response = await startRegistration({ optionsJSON: options });
  return api.post<ApiAnswer<'/api/me/passkeys', 'post'>>('/api/me/passkeys', { name, response });
}
