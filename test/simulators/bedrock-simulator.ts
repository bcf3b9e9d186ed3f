// A simulator of Amazon Bedrock's runtime Converse API, answering in Bedrock's exact shapes:
//   POST /model/{modelId}/converse          (bedrock-simulator-converse.ts) a whole answer
//   POST /model/{modelId}/converse-stream   the same as a binary AWS event stream (application/vnd.amazon.eventstream):
//        messageStart, contentBlockStart (tool use), contentBlockDelta, contentBlockStop, messageStop, metadata (usage)
// The model id is one path segment, percent-encoded (`anthropic.claude-3-5-sonnet-20240620-v1%3A0`, ARNs with %2F).
// Auth: AWS Signature Version 4 (service `bedrock`, the simulator's region), recomputed from the request with
// the secret of the access key id (bedrock-simulator-auth.ts): an unknown key → 403 UnrecognizedClientException,
// a wrong signature (wrong secret, altered body) → 403 InvalidSignatureException, both with x-amzn-errortype.
// Replies as the other simulators (simulator-answers.ts): `Hello from the Bedrock simulator: you said "<last user
// text>"`; toolUse blocks (stopReason tool_use) when tools are offered and the last user text mentions "weather";
// after toolResult blocks `The tool said: <results>`. inferenceConfig.stopSequences and maxTokens shape the text
// (maxTokens keeps that many words, stopReason max_tokens).
// Usage: inputTokens = words of the system prompt and every message less the script's cachedTokens and
// cacheWriteTokens (reported as cacheReadInputTokens / cacheWriteInputTokens); outputTokens = words of the answer.
// Scripts (simulator-script.ts) apply; `omitTerminator` leaves out the final metadata event.
// `failNextStream({type, message, afterMessages})`: the next ConverseStream sends that many messages, then an
// exception message (`:message-type: exception`, `:exception-type: <type>`) and ends.
import { startSimulator, type Simulator } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { awsError, checkSigV4, type AwsTestCredentials } from './bedrock-simulator-auth.ts';
import { converse, type StreamException } from './bedrock-simulator-converse.ts';

export type BedrockSimulator = Simulator & {
  /** The model ids of the Converse calls, decoded from the path. */
  modelIds: string[];
  failNextStream(exception: StreamException): void;
};

interface BedrockSimulatorOptions {
  credentials?: AwsTestCredentials[];
  region?: string;
  recordRequests?: boolean;
}

export const BEDROCK_SIM_CREDENTIALS: AwsTestCredentials = { accessKeyId: 'AKIASIMULATOR0000001', secretAccessKey: 'simSecretKey/0123456789+abcdefghijklmnopqrs' };
const BEDROCK_SIM_REGION = 'us-east-1';

const TYPE_FOR_STATUS: Record<number, string> = { 400: 'ValidationException', 403: 'AccessDeniedException', 404: 'ResourceNotFoundException', 408: 'ModelTimeoutException', 424: 'ModelErrorException', 429: 'ThrottlingException', 500: 'InternalServerException', 503: 'ServiceUnavailableException' };

export async function startBedrockSimulator(options: BedrockSimulatorOptions = {}): Promise<BedrockSimulator> {
  const credentials = options.credentials ?? [BEDROCK_SIM_CREDENTIALS];
  const region = options.region ?? BEDROCK_SIM_REGION;
  const modelIds: string[] = [];
  const exceptions: StreamException[] = [];
  const simulator = await startSimulator({
    recordRequests: options.recordRequests,
    errorBody: (status) => ({ message: `${TYPE_FOR_STATUS[status] ?? 'InternalServerException'} (simulated)` }),
    checkAuth: ({ request, recorded }) => checkSigV4(request, recorded, credentials, region),
    handle: (exchange) => {
      const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(exchange.recorded.path);
      if (exchange.recorded.method !== 'POST' || !match) {
        const answer = awsError(404, 'UnknownOperationException', 'Unknown operation');
        return sendJson(exchange.response, answer.status, answer.body, answer.headers);
      }
      const modelId = decodeURIComponent(match[1]!);
      modelIds.push(modelId);
      const stream = match[2] === 'converse-stream';
      return converse(exchange, modelId, stream, stream ? exceptions.shift() : undefined);
    },
  });
  return Object.assign(simulator, { modelIds, failNextStream: (exception: StreamException) => void exceptions.push(exception) });
}
