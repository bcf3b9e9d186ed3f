import { describe, expect, it } from 'vitest';
import { createHubToOpenaiResponsesStreamMachine } from './openai-responses-stream.ts';
import { openaiResponsesRequestToHub } from './openai-responses-request.ts';
import { CustomInputReader, customToolInput } from './openai-responses-tool-calls.ts';
import { openReasoning, sealReasoning, useSecretForReasoningSeals } from './openai-responses-reasoning-seal.ts';

const json = (events: { data: string }[]) => events.map((e) => JSON.parse(e.data) as Record<string, unknown>);

describe('reasoning seals', () => {
  it('open under the key that sealed them, and under no other; a changed byte is refused', () => {
    useSecretForReasoningSeals('first-secret-of-sixteen');
    const sealed = sealReasoning({ signature: 'sig-1' })!;
    expect(sealed).not.toContain('sig-1');
    expect(openReasoning(sealed)).toEqual({ signature: 'sig-1' });
    expect(openReasoning(sealReasoning({ redactedData: 'R' })!)).toEqual({ redactedData: 'R' });
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(openReasoning(flipped)).toBeNull();
    expect(openReasoning('sig-1')).toBeNull();
    useSecretForReasoningSeals('another-secret-of-sixteen');
    expect(openReasoning(sealed)).toBeNull();
  });
});

describe('client-run tools', () => {
  const tools = [
    { type: 'namespace', name: 'ns', description: 'd', tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }, { type: 'custom', name: 'c' }] },
    { type: 'custom', name: 'apply_patch', format: { type: 'text' } },
    { type: 'local_shell' },
    { type: 'shell' },
  ];

  it('flatten into hub functions, and history items of each kind read back as calls and results', () => {
    const { request } = openaiResponsesRequestToHub({
      model: 'm', tools, tool_choice: { type: 'function', name: 'f', namespace: 'ns' },
      input: [
        { role: 'user', content: 'go' },
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: 'PATCH' },
        { type: 'local_shell_call', id: 'lsh_1', call_id: 'c2', status: 'completed', action: { type: 'exec', command: ['ls'], env: {} } },
        { type: 'function_call', call_id: 'c3', name: 'f', namespace: 'ns', arguments: '{}' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'patched' },
        { type: 'local_shell_call_output', id: 'c2', output: 'a.txt' },
        { type: 'shell_call_output', call_id: 'c3', output: [{ stdout: 'x', stderr: '', outcome: { type: 'exit', exit_code: 0 } }] },
      ],
    });
    expect(request.tools.map((t) => t.name)).toEqual(['ns__f', 'ns__c', 'apply_patch', 'local_shell', 'shell']);
    expect(request.tools[2]!.parameters).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'ns__f' });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [
      { type: 'tool-call', id: 'c1', name: 'apply_patch', argumentsJson: '{"input":"PATCH"}' },
      { type: 'tool-call', id: 'c2', name: 'local_shell', argumentsJson: '{"command":["ls"]}' },
      { type: 'tool-call', id: 'c3', name: 'ns__f', argumentsJson: '{}' },
    ] });
    expect(request.messages[2]!.content.map((r) => (r as { content: unknown }).content)).toEqual(['patched', 'a.txt', 'x\nexit code: 0']);
  });

  it('stream a custom call as custom_tool_call_input events and a shell call as a local_shell_call item', () => {
    const machine = createHubToOpenaiResponsesStreamMachine({ requestModel: 'm', created: 1, requestBody: { tools } });
    const events = json([
      ...machine.push({ type: 'start', id: 'r', model: 'm' }),
      ...machine.push({ type: 'tool-call-start', index: 0, id: 'call_a', name: 'apply_patch' }),
      ...machine.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"input":"*** Begin' }),
      ...machine.push({ type: 'tool-call-delta', index: 0, argumentsDelta: ' Patch"}' }),
      ...machine.push({ type: 'tool-call-end', index: 0 }),
      ...machine.push({ type: 'tool-call-start', index: 1, id: 'call_b', name: 'local_shell' }),
      ...machine.push({ type: 'tool-call-delta', index: 1, argumentsDelta: '{"command":["ls","-a"]}' }),
      ...machine.push({ type: 'tool-call-end', index: 1 }),
      ...machine.push({ type: 'tool-call-start', index: 2, id: 'call_c', name: 'ns__f' }),
      ...machine.push({ type: 'tool-call-delta', index: 2, argumentsDelta: '{}' }),
      ...machine.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 1, outputTokens: 1 } }),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done', 'response.output_item.done',
      'response.output_item.added', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    // Decoded as the arguments stream in.
    expect([events[3]!.delta, events[4]!.delta, events[5]!.input]).toEqual(['*** Begin', ' Patch', '*** Begin Patch']);
    const output = (events.at(-1)!.response as { output: unknown[] }).output;
    expect(output).toEqual([
      { id: 'ctc_r_0', type: 'custom_tool_call', status: 'completed', call_id: 'call_a', name: 'apply_patch', input: '*** Begin Patch' },
      { id: 'lsh_r_1', type: 'local_shell_call', status: 'completed', call_id: 'call_b', action: { type: 'exec', command: ['ls', '-a'], env: {}, timeout_ms: null, working_directory: null } },
      { id: 'fc_r_2', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_c', name: 'f', namespace: 'ns' },
    ]);
  });

  it('read a custom input out of arguments split anywhere, escapes included', () => {
    const args = JSON.stringify({ input: '*** Begin Patch\n+say "hi" \\ \u00e9 😀\n*** End Patch' });
    for (const size of [1, 2, 3, 7]) {
      const reader = new CustomInputReader();
      let text = '';
      for (let i = 0; i < args.length; i += size) text += reader.more(args.slice(0, i + size));
      expect(text).toBe(customToolInput(args));
    }
    const escaped = String.raw`{ "input" : "caf\u00e9 \ud83d\ude00 \"q\"" }`;
    const reader = new CustomInputReader();
    let text = '';
    for (let i = 0; i < escaped.length; i++) text += reader.more(escaped.slice(0, i + 1));
    expect(text).toBe('café 😀 "q"');
    expect(new CustomInputReader().more('{"other": 1, "input": "x"}')).toBe('');
  });
});
