// A channel credential refused before the call could be sent: a token endpoint turned down the service
// account or the client secret, or the stored credential is not in the shape its channel type needs.
// The relay treats it like an upstream 401: the channel is disabled with this reason and the call fails
// over. The message names what was refused, never the secret.
export class UpstreamCredentialError extends Error {
  readonly code = 'GW_UPSTREAM_CREDENTIAL_REFUSED';
  /** The token endpoint's status, or null when the credential could not even be read. */
  readonly status: number | null;
  /** The token endpoint's error identifier (invalid_grant, invalid_client), when it gave one. */
  readonly upstreamCode: string | null;

  constructor(message: string, status: number | null, upstreamCode: string | null = null) {
    super(message);
    this.name = 'UpstreamCredentialError';
    this.status = status;
    this.upstreamCode = upstreamCode;
  }
}
