// The Bedrock simulator's credential check: it recomputes the request's SigV4 signature with the secret it
// knows for the access key id (the same signing library as the AWS SDK, over the headers the request says
// it signed, at the time it says it signed) and answers AWS's 403s: UnrecognizedClientException for an
// unknown key, InvalidSignatureException for a signature that does not match.
import type { IncomingMessage } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { ErrorAnswer, RecordedRequest } from './simulator-core.ts';

export interface AwsTestCredentials { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

export function awsError(status: number, type: string, message: string): ErrorAnswer {
  return { status, body: { message }, headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'sim-request' } };
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** 20261124T052301Z → Date */
function amzDate(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return match ? new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!, +match[4]!, +match[5]!, +match[6]!)) : null;
}

export async function checkSigV4(request: IncomingMessage, recorded: RecordedRequest, known: readonly AwsTestCredentials[], region: string): Promise<ErrorAnswer | null> {
  const match = AUTHORIZATION.exec(String(request.headers.authorization ?? ''));
  if (!match) return awsError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const [, accessKeyId, , scopeRegion, service, signedHeaders, signature] = match as unknown as string[];
  const credentials = known.find((candidate) => candidate.accessKeyId === accessKeyId);
  if (!credentials) return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  if (credentials.sessionToken !== undefined && request.headers['x-amz-security-token'] !== credentials.sessionToken) {
    return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  }
  const signingDate = amzDate(String(request.headers['x-amz-date'] ?? ''));
  if (!signingDate || scopeRegion !== region || service !== 'bedrock') {
    return awsError(403, 'InvalidSignatureException', `Credential should be scoped to a valid region and service 'bedrock'.`);
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders!.split(';')) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const rawUrl = request.url ?? '/';
  const q = rawUrl.indexOf('?');
  const query: Record<string, string> = {};
  for (const [name, value] of recorded.query) query[name] = value;
  const signer = new SignatureV4({ service: 'bedrock', region, credentials, sha256: Sha256 });
  const expected = await signer.sign({
    method: recorded.method, protocol: 'http:', hostname: String(request.headers.host ?? '').split(':')[0]!, path: q < 0 ? rawUrl : rawUrl.slice(0, q),
    query, headers, body: recorded.rawBody,
  }, { signingDate });
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1];
  if (expectedSignature !== signature) {
    return awsError(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.');
  }
  return null;
}
