// Multipart endpoints: POST /v1/audio/transcriptions and POST /v1/images/edits.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientTraceHeaders, type RelayDeps } from '../../relay/relay-deps.ts';
import { newCallMeter } from '../../relay/relay-types.ts';
import { MAX_AUDIO_BYTES, prepareTranscription, type PreparedUpload } from '../../endpoints/audio-transcriptions.ts';
import { MAX_IMAGE_UPLOAD_BYTES, prepareImageEdit } from '../../endpoints/images-edits.ts';
import type { MultipartUpload } from '../multipart-upload.ts';
import { receiveMultipart } from '../multipart-upload.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayReply } from '../send-relay-result.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';

const uploads: [url: string, maxBytes: number, prepare: (upload: MultipartUpload) => PreparedUpload | Promise<PreparedUpload>][] = [
  ['/v1/audio/transcriptions', MAX_AUDIO_BYTES, prepareTranscription],
  ['/v1/images/edits', MAX_IMAGE_UPLOAD_BYTES, prepareImageEdit],
];

export function uploadRoutes(app: FastifyInstance, deps: RelayDeps): void {
  for (const [url, maxBytes, prepare] of uploads) {
    app.post(url, { config: { errorFormat: 'openai-chat' } }, async (request: FastifyRequest, reply: FastifyReply) => {
      const startedAt = performance.now();
      const key = authenticateRequest(deps.state, request);
      let model: unknown;
      try {
        const upload = await receiveMultipart(request, maxBytes);
        try {
          model = upload.fields.model;
          const prepared = await prepare(upload);
          request.metricsModel = prepared.model;
          const result = await prepared.relay(deps, {
            requestId: request.id,
            key,
            endpoint: url,
            inboundFormat: 'openai-chat',
            model: prepared.model,
            stream: false,
            body: upload.fields,
            rawBody: Buffer.alloc(0),
            signal: abortSignalForClient(reply),
            startedAt,
            forwardHeaders: {},
            meter: newCallMeter(),
            traceHeaders: clientTraceHeaders(deps, request.headers),
          });
          return sendRelayReply(reply, result);
        } finally {
          await upload.cleanup();
        }
      } catch (error) {
        recordRefusedCall(deps, { requestId: request.id, key, endpoint: url, inboundFormat: 'openai-chat', model, stream: false, startedAt }, error);
        throw error;
      }
    });
  }
}
