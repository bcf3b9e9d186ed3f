// The usage matrix through a fifth wire format registered at run time (issue 27, Done-when): toy-chat, a
// minimal JSON protocol that lives in test/formats/toy-chat/, spoken by the `toy` channel type to
// test/simulators/toy-simulator.ts. One line registers both; the channel is then declared in the config
// file like any other (its own settings block included), and every cell of usage-matrix-suite.ts (the four
// client formats through their SDKs, streamed or not, usage reported or omitted, output limits) runs
// through it unchanged.
import { afterAll, beforeAll } from 'vitest';
import { registerProvider } from '../../src/providers/registry.ts';
import { toyChatFormat, toyProvider } from '../formats/toy-chat/index.ts';
import { startToySimulator, type ToySimulator } from '../simulators/toy-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { PRICES, usageMatrixSuite, type MatrixChannel } from './usage-matrix-suite.ts';

registerProvider(toyProvider, toyChatFormat);

const KEY = testKey('toymatrix');
let upstream: ToySimulator;
let gateway: TestGateway;

const channels: MatrixChannel[] = [
  { type: 'toy', model: 'm-toy', script: (step) => upstream.script(step), reportsCacheWrite: true, uncappedCells: true },
];

beforeAll(async () => {
  upstream = await startToySimulator({ apiKey: 'toy-upstream-key', tenant: 'harbour' });
  gateway = await startTestGateway({
    channels: [{ name: 'toy', type: 'toy', base_url: upstream.url, toy: { tenant: 'harbour' }, api_key: 'toy-upstream-key', models: ['m-toy'], model_mapping: { 'm-toy': 'toy-1' } }],
    models: [{ id: 'm-toy', ...PRICES }],
    users: [{ name: 'tobias', balance: 100 }],
    keys: [{ name: 'toy-usage', key: KEY, user: 'tobias' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

usageMatrixSuite({ gateway: () => gateway, key: KEY, keyName: 'toy-usage', user: 'tobias' }, () => channels);
