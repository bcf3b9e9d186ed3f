// The toy-chat format and the `toy` channel type that speaks it, registered by a test in one line:
//   registerProvider(toyProvider, toyChatFormat);
// Everything the gateway needs to know about them is declared here, from outside src/: the converters and
// capabilities of the format (FormatConverters), and the provider with its own settings block (a tenant,
// which names the upstream's path, and a signing secret), from which the config file, the admin API and
// the dashboard's form accept and show it. The upstream is test/simulators/toy-simulator.ts.
import { z } from 'zod';
import type { FormatConverters } from '../../../src/hub/hub-format.ts';
import { machineToTransformStream } from '../../../src/hub/hub-stream.ts';
import { hubMachineWatcher } from '../../../src/formats/shared/hub-machine-watcher.ts';
import { positiveCount, requestFacts } from '../../../src/formats/shared/request-facts.ts';
import { openaiModelEntry, openaiModelList } from '../../../src/formats/openai-chat/openai-chat-models.ts';
import { defineProvider, setting } from '../../../src/providers/provider-entry.ts';
import { pathSegment } from '../../../src/providers/path-segment.ts';
import { hubToToyRequest, toyRequestToHub } from './toy-chat-request.ts';
import { hubToToyResponse, toyResponseToHub } from './toy-chat-response.ts';
import { hubToToyStreamMachine, toyStreamToHubMachine } from './toy-chat-stream.ts';
import { hubErrorToToy, hubErrorToToyStreamEvent, toyRefusalOf, toyTroubleToHub } from './toy-chat-error.ts';
import { toyUsageToHub } from './toy-chat-wire.ts';

export const toyChatFormat: FormatConverters = {
  name: 'toy-chat',
  modelIn: 'body',
  needsInlineImages: false,
  clientKey: { header: 'x-toy-key', bearer: false },
  chatOperations: { whole: 'chat', stream: 'chat-stream' },
  apiFamily: 'toy',
  supportsPrefill: false,
  // Its last stream event always says how the answer stopped (and its usage, when the upstream counts).
  watch: (ctx) => hubMachineWatcher(toyChatFormat, ctx),
  requestFacts: requestFacts((body) => positiveCount(body.max_words), { turns: ['turns'], other: ['system'] }),
  streamUsageOption: null,
  streamTerminator: null,
  modelList: openaiModelList,
  modelEntry: openaiModelEntry,
  probeBody: (upstreamModel) => ({ model: upstreamModel, turns: [{ who: 'user', text: 'ping' }], max_words: 8 }),
  refusalOf: toyRefusalOf,
  requestToHub: toyRequestToHub,
  hubToRequest: hubToToyRequest,
  responseToHub: toyResponseToHub,
  hubToResponse: hubToToyResponse,
  usageToHub: toyUsageToHub,
  streamToHub: (ctx) => machineToTransformStream(toyStreamToHubMachine(ctx)),
  hubToStream: (ctx) => machineToTransformStream(hubToToyStreamMachine(ctx)),
  streamToHubMachine: toyStreamToHubMachine,
  hubToStreamMachine: hubToToyStreamMachine,
  errorToHub: toyTroubleToHub,
  hubToError: hubErrorToToy,
  hubErrorToStreamEvent: hubErrorToToyStreamEvent,
};

/** The `toy` channel type: its upstream serves chat at /toy/{tenant}/chat and reads its key from x-toy-key. */
export const toyProvider = defineProvider({
  type: 'toy',
  chatFormat: 'toy-chat',
  settings: {
    toy: setting(z.object({
      tenant: setting(z.string().regex(/^[a-z0-9-]{1,40}$/, 'lowercase letters, digits and hyphens'), { title: 'Toy tenant', examples: ['harbour'] }),
      // A secret of the block: encrypted at rest, never shown back, kept when an edit leaves it out.
      signing_secret: setting(z.string().min(8).optional(), { title: 'Toy signing secret', description: 'Sent as x-toy-secret when the upstream asks for one.', secret: true }),
    }).strict(), { title: 'Toy upstream' }),
  },
  credential: { label: 'Toy key', description: 'The key the toy upstream reads from x-toy-key.' },
  needsBaseUrl: 'a toy channel needs base_url: where its upstream listens',
  create: (settings) => ({
    type: 'toy',
    chatFormat: 'toy-chat',
    defaultBaseUrl: '',
    path: (operation) => (operation === 'chat' || operation === 'chat-stream' ? `/toy/${pathSegment(settings.toy.tenant)}/chat` : null),
    authenticate(_request, apiKey): Record<string, string> {
      const secret = settings.toy.signing_secret;
      return secret === undefined ? { 'x-toy-key': apiKey } : { 'x-toy-key': apiKey, 'x-toy-secret': secret };
    },
  }),
});

