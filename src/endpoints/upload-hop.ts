// A multipart upload passed through to an OpenAI-format channel: the fields (model id mapped) and the files
// from disk, rebuilt as a fresh body for each attempt.
import type { Operation } from '../providers/provider-definition.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import type { Usage } from '../metering/usage.ts';
import type { RelayHop } from '../relay/relay-hop.ts';
import { gatewayErrorFromUpstream } from '../relay/upstream-error.ts';
import type { MultipartUpload } from '../http/multipart-upload.ts';
import { multipartBody } from '../upstream/multipart-body.ts';
import { openaiChatFormat } from '../formats/index.ts';
import { speaksFamilyOf } from '../relay/hops/api-family.ts';

export function uploadPassthroughHop(upload: MultipartUpload, operation: Operation, usage: (text: string) => Usage, contentTypeOf: (text: string) => string): RelayHop {
  return {
    supports: (channel) => speaksFamilyOf(channel, openaiChatFormat) && supportsOperation(channel, operation),
    request(channel, upstreamModel) {
      const body = multipartBody({ ...upload.fields, model: upstreamModel }, upload.files);
      return {
        path: operationPath(channel, operation, upstreamModel),
        headers: { 'content-type': body.contentType, 'content-length': String(body.contentLength) },
        body: body.body,
      };
    },
    whole: (text) => ({ body: text, contentType: contentTypeOf(text), usage: usage(text) }),
    error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
  };
}
