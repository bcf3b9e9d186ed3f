// Passkeys in the browser (@simplewebauthn/browser): the gateway's options go to navigator.credentials,
// and the authenticator's answer goes back to the gateway, which checks it.
import { startAuthentication, startRegistration, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from './api-client.ts';

export interface Passkey {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Signs in with a passkey the browser holds for this site; answers what sign-in answers. */
export async function signInWithPasskey(): Promise<unknown> {
  const options = await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options');
  const response = await startAuthentication({ optionsJSON: options });
  return api.post('/api/auth/passkey', { response });
}

export async function addPasskey(name: string): Promise<Passkey> {
  const options = await api.post<PublicKeyCredentialCreationOptionsJSON>('/api/me/passkeys/options');
  const response = await startRegistration({ optionsJSON: options });
  return api.post<Passkey>('/api/me/passkeys', { name, response });
}
