// A WebAuthn authenticator in software (ES256, "none" attestation), for passkey tests over the wire without
// a browser: it answers the gateway's options exactly as @simplewebauthn/browser would pass a platform
// authenticator's answer on, so the server's real verifier checks it. Each answer can be replayed or tampered
// with, which a browser's authenticator never allows.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/** What navigator.credentials.create/get resolve to, as the dashboard posts it. */
export interface PasskeyAnswer {
  id: string;
  rawId: string;
  type: 'public-key';
  response: Record<string, string | string[]>;
  clientExtensionResults: Record<string, never>;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  /** The signature counter; set it back to act as a cloned authenticator. */
  counter = 0;
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicJwk = pair.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Flags: user present and user verified (a PIN or biometric check), plus attested data when registering. */
  private authenticatorData(rpId: string, attested: Uint8Array | null): Buffer {
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** The answer to registration options (navigator.credentials.create). */
  register(options: { challenge: string; rp: { id: string } }): PasskeyAnswer {
    const cose = new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(this.publicJwk.x, 'base64url')], [-3, Buffer.from(this.publicJwk.y, 'base64url')]]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', this.authenticatorData(options.rp.id, attested)]]) as never);
    return {
      id: this.id, rawId: this.id, type: 'public-key',
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** The answer to sign-in options (navigator.credentials.get); the counter moves forward first. */
  signIn(options: { challenge: string; rpId: string }): PasskeyAnswer {
    this.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authenticatorData = this.authenticatorData(options.rpId, null);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id, rawId: this.id, type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature) },
      clientExtensionResults: {},
    };
  }
}
