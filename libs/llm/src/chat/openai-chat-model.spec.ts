import { freePort } from '@inquest/testing';
import { startScriptedChatServer, type ScriptedChatServer } from '../testing/scripted-chat-server';
import { OpenAiChatModel } from './openai-chat-model';

let server: ScriptedChatServer;
beforeEach(async () => {
  server = await startScriptedChatServer();
});
afterEach(async () => {
  await server.stop();
});

const model = (over: Partial<ConstructorParameters<typeof OpenAiChatModel>[0]> = {}) =>
  new OpenAiChatModel({
    baseUrl: server.baseUrl,
    apiKey: 'sk-test',
    model: 'test-model',
    maxRetries: 0,
    ...over,
  });

describe('OpenAiChatModel', () => {
  it('sends messages and tools, returns tool calls and content', async () => {
    server.script.push(
      { toolCalls: [{ name: 'k8s__list_pods', arguments: { namespace: 'shop' } }] },
      { content: '{"ok":true}' },
    );
    const m = model();
    const first = await m.chat({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'why?' },
      ],
      tools: [
        {
          name: 'k8s__list_pods',
          description: 'pods',
          parameters: { type: 'object', properties: {} },
        },
      ],
    });
    expect(first.toolCalls).toEqual([
      { id: expect.any(String), name: 'k8s__list_pods', arguments: '{"namespace":"shop"}' },
    ]);
    const second = await m.chat({
      messages: [
        { role: 'user', content: 'why?' },
        { role: 'assistant', content: null, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: first.toolCalls[0]!.id, content: '{"pods":[]}' },
      ],
      json: true,
    });
    expect(second.content).toBe('{"ok":true}');
    expect(server.requests[0]?.model).toBe('test-model');
    expect(server.requests[0]?.authorization).toBe('Bearer sk-test');
    expect(server.requests[0]?.tools?.[0]?.function.name).toBe('k8s__list_pods');
    expect(server.requests[1]?.messages[2]).toMatchObject({
      role: 'tool',
      tool_call_id: first.toolCalls[0]!.id,
    });
    expect(server.requests[1]?.response_format).toEqual({ type: 'json_object' });
  });

  it('maps a 5xx to llm_unavailable', async () => {
    server.script.push({ status: 503 });
    await expect(
      model().chat({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ code: 'llm_unavailable' });
  });

  it('maps an unreachable API to llm_unavailable', async () => {
    const m = model({ baseUrl: `http://127.0.0.1:${await freePort()}/v1` });
    await expect(m.chat({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      code: 'llm_unavailable',
    });
  });

  it('maps a slow answer to timeout', async () => {
    server.script.push({ hang: true });
    await expect(
      model().chat({ messages: [{ role: 'user', content: 'x' }] }, { timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });

  it('rejects with the abort reason when aborted', async () => {
    server.script.push({ hang: true });
    const ac = new AbortController();
    const p = model().chat({ messages: [{ role: 'user', content: 'x' }] }, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('cancelled by user')), 100);
    await expect(p).rejects.toThrow('cancelled by user');
  });
});

describe('OpenAiChatModel circuit breaker', () => {
  it('opens after repeated 5xx answers, then refuses without calling the API', async () => {
    const m = model();
    for (let i = 0; i < 5; i++) server.script.push({ status: 503 });
    for (let i = 0; i < 5; i++)
      await expect(m.chat({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
        code: 'llm_unavailable',
      });
    const sent = server.requests.length;
    server.script.push({ content: 'would answer' });
    await expect(m.chat({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      code: 'llm_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(server.requests.length).toBe(sent);
  });
});
