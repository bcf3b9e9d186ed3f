// Amazon Bedrock (bedrock-runtime): Converse and ConverseStream, signed with AWS Signature Version 4.
// The channel's api_key is `ACCESS_KEY_ID:SECRET_ACCESS_KEY`, or `ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN`
// for temporary credentials (none of the three contains a colon); its `region` setting names the endpoint
// and the signing scope. Signing is @smithy/signature-v4 with @aws-crypto's SHA-256, as the AWS SDK does.
import type { SignatureV4 } from '@smithy/signature-v4';
import { z } from 'zod';
import type { ProviderDefinition, UpstreamRequestToSign } from './provider-definition.ts';
import { defineProvider, setting } from './provider-entry.ts';

const BEDROCK_SIGNING_SERVICE = 'bedrock';

interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const CREDENTIAL_FORMAT = "a bedrock channel's api_key must be 'ACCESS_KEY_ID:SECRET_ACCESS_KEY' or 'ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN'.";

function credentialParts(apiKey: string): string[] | null {
  const parts = apiKey.trim().split(':');
  return (parts.length === 2 || parts.length === 3) && parts.every((part) => part !== '') ? parts : null;
}

/** Reads `AKID:SECRET[:TOKEN]`; the message never repeats the value. */
function parseAwsCredentials(apiKey: string): AwsCredentials {
  const parts = credentialParts(apiKey);
  if (!parts) throw new Error(CREDENTIAL_FORMAT);
  const [accessKeyId, secretAccessKey, sessionToken] = parts as [string, string, string | undefined];
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/**
 * A model id in the path as the AWS SDK writes it: one segment, with `:` and `/` of versioned ids and
 * inference-profile ARNs percent-encoded (and !'()* too, as its extendedEncodeURIComponent does).
 */
function bedrockModelSegment(modelId: string): string {
  return encodeURIComponent(modelId).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The region from an AWS endpoint host (bedrock-runtime.eu-west-1.amazonaws.com), for a base_url without a region setting. */
function regionOfHost(host: string): string | undefined {
  return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(host)?.[1];
}

// One signer per (region, key): it caches its derived signing key for the day.
const signers = new Map<string, SignatureV4>();
const MAX_SIGNERS = 1000;

// The signing packages (~18 MB resident) are loaded by the first Bedrock request, not at start.
let signingLibraries: Promise<[typeof import('@smithy/signature-v4'), typeof import('@aws-crypto/sha256-js')]> | undefined;
const loadSigning = () => (signingLibraries ??= Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]));

async function signerFor(region: string, apiKey: string): Promise<SignatureV4> {
  const cacheKey = `${region}\u0000${apiKey}`;
  let signer = signers.get(cacheKey);
  if (!signer) {
    const [{ SignatureV4: Signer }, { Sha256 }] = await loadSigning();
    if (signers.size >= MAX_SIGNERS) signers.clear();
    signer = new Signer({ service: BEDROCK_SIGNING_SERVICE, region, credentials: parseAwsCredentials(apiKey), sha256: Sha256 });
    signers.set(cacheKey, signer);
  }
  return signer;
}

async function signBedrockRequest(request: UpstreamRequestToSign, apiKey: string, channelRegion: string | undefined): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const region = channelRegion ?? regionOfHost(url.hostname);
  if (!region) throw new Error('A bedrock channel needs a region (its `region` setting) to sign requests.');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const signed = await (await signerFor(region, apiKey)).sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
    query,
    headers: { ...request.headers, host: url.host },
    ...(request.body !== null ? { body: request.body } : {}),
  });
  // undici writes Host from the origin (the same value); everything else the signer added is sent.
  const { host: _host, ...headers } = signed.headers;
  return headers;
}

const REGION_NEEDED = "a bedrock channel needs its AWS region, e.g. region: 'us-east-1'.";

/** A Bedrock channel's own setting: its AWS region (us-east-1, eu-central-1, …), the endpoint and the signing scope. */
const bedrockSettings = {
  region: setting(z.string({ error: (issue) => (issue.input === undefined ? REGION_NEEDED : undefined) }).regex(/^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/, 'must be an AWS region such as us-east-1'), {
    title: 'AWS region', description: "The Bedrock endpoint's region, also the signing scope.", examples: ['us-east-1'],
  }),
};

function bedrockProvider(region: string | undefined): ProviderDefinition {
  return {
    type: 'bedrock',
    chatFormat: 'bedrock-converse',
    defaultBaseUrl: `https://bedrock-runtime.${region ?? 'us-east-1'}.amazonaws.com`,
    path(operation, upstreamModel) {
      switch (operation) {
        case 'chat':
          return `/model/${bedrockModelSegment(upstreamModel)}/converse`;
        case 'chat-stream':
          return `/model/${bedrockModelSegment(upstreamModel)}/converse-stream`;
        default:
          return null;
      }
    },
    authenticate: (request, apiKey) => signBedrockRequest(request, apiKey, region),
  };
}

export const bedrockEntry = defineProvider({
  type: 'bedrock',
  chatFormat: 'bedrock-converse',
  settings: bedrockSettings,
  credential: { label: 'AWS credentials', description: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY, or ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN.' },
  credentialProblem: (apiKey) => (credentialParts(apiKey) ? null : CREDENTIAL_FORMAT),
  create: (settings) => bedrockProvider(settings.region),
});
