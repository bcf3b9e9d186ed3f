// A composite upstream credential (Bedrock's ACCESS_KEY_ID:SECRET:SESSION_TOKEN) never appears in a text the
// gateway passes on, whole or in parts: AWS's InvalidSignatureException quotes the canonical request, whose
// x-amz-security-token header is the session token.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/relay/redact-credentials.ts';

describe('redactSecrets with a composite credential', () => {
  it('removes the whole credential and each part of it', () => {
    const credential = 'ASIATEMPORARY0000001:tempSecret/abc+def:FwoGZXIvYXdzEJr//token==';
    const text = 'The Canonical String for this request should have been\nx-amz-security-token:FwoGZXIvYXdzEJr//token==\n'
      + 'Credential=ASIATEMPORARY0000001/20261124 secret tempSecret/abc+def whole ' + credential;
    const redacted = redactSecrets(text, [credential]);
    for (const part of credential.split(':')) expect(redacted).not.toContain(part);
    expect(redacted).toContain('The Canonical String for this request should have been');
  });
});
