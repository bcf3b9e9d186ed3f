// POST /v1/audio/speech: text to audio. The audio bytes stream back as they arrive, with the upstream's
// content type; priced per million input characters.
import { z } from 'zod';
import { emptyUsage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';

const SPEECH_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse'] as const;

const speechSchema = z.looseObject({
  model: z.string().min(1),
  input: z.string().min(1).max(4096),
  voice: z.enum(SPEECH_VOICES),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).nullish(),
  speed: z.number().min(0.25).max(4).nullish(),
  instructions: z.string().nullish(),
});

export function prepareSpeech(raw: unknown): PreparedCall {
  const body = parseBody(speechSchema, raw);
  const characters = [...body.input].length;
  return {
    model: body.model,
    stream: false,
    body,
    relay: (deps, call) => {
      const hop = openAIJsonPassthroughHop(call, { operation: 'audio-speech', usage: () => ({ ...emptyUsage(), characters }) });
      return relayEndpoint(deps, call, { ...hop, passBytes: { usage: () => ({ ...emptyUsage(), characters }) } }, {
        estimate: () => ({ ...emptyUsage(), characters }),
      });
    },
  };
}
