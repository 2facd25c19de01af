import { DomainError } from '@inquest/errors';
import type { KnowledgeSource, ToolDescriptor, ToolGateway } from './ports';
import { BUILTIN_TOOLS, ToolRunner } from './tool-runner';

const external = (name: string): ToolDescriptor => ({
  fullName: `k8s:${name}`,
  server: 'k8s',
  name,
  description: '',
  parameters: { type: 'object', properties: {} },
});
const builtin = (name: string) => BUILTIN_TOOLS.find((t) => t.fullName === name)!;

function world(opts: { fail?: (tool: string) => unknown; knowledgeDown?: boolean } = {}) {
  const calls: Array<{ tool: string; params: Record<string, unknown>; requestId?: string }> = [];
  const knowledgeCalls: unknown[][] = [];
  const tools: ToolGateway = {
    listTools: () => Promise.reject(new Error('not used')),
    callTool: async (_team, _inv, tool, params, _signal, requestId) => {
      calls.push({ tool, params, ...(requestId ? { requestId } : {}) });
      const err = opts.fail?.(tool);
      if (err) throw err;
      return { output: { tool }, truncated: tool.endsWith('big') };
    },
  };
  const knowledge: KnowledgeSource = {
    retrieve: async (...args) => {
      knowledgeCalls.push(['retrieve', args[1], args[2]]);
      if (opts.knowledgeDown) throw new Error('down');
      return [];
    },
    listPatterns: async (...args) => {
      knowledgeCalls.push(['patterns', args[1], args[2]]);
      if (opts.knowledgeDown) throw new Error('down');
      return [];
    },
  };
  const ac = new AbortController();
  const called: string[] = [];
  const runner = new ToolRunner(
    'payments',
    'inv-1',
    tools,
    knowledge,
    ac.signal,
    (t) => called.push(t),
    'req-1',
  );
  return { runner, calls, knowledgeCalls, called, ac };
}

describe('ToolRunner', () => {
  it('runs identical calls once (parameter order does not matter) and records each tool once', async () => {
    const w = world();
    const [a, b] = await Promise.all([
      w.runner.call(external('list_pods'), { namespace: 'shop', limit: 5 }),
      w.runner.call(external('list_pods'), { limit: 5, namespace: 'shop' }),
    ]);
    expect(a).toBe(b);
    await w.runner.call(external('list_pods'), { namespace: 'other' });
    await w.runner.call(external('get_big'), {});
    expect(w.calls.map((c) => [c.tool, c.requestId])).toEqual([
      ['k8s:list_pods', 'req-1'],
      ['k8s:list_pods', 'req-1'],
      ['k8s:get_big', 'req-1'],
    ]);
    expect(w.runner.used).toEqual(['k8s:list_pods', 'k8s:get_big']);
    expect(w.called).toEqual(['k8s:list_pods', 'k8s:list_pods', 'k8s:get_big']);
    expect(await w.runner.call(external('get_big'), {})).toEqual({
      ok: true,
      output: { tool: 'k8s:get_big' },
      truncated: true,
    });
    expect([w.runner.externalAttempts, w.runner.externalSuccesses]).toEqual([3, 3]);
  });

  it('turns a failed call into an outcome, counting unavailability and timeouts as unreachable', async () => {
    const w = world({
      fail: (tool) =>
        tool === 'k8s:down'
          ? new DomainError('unavailable', 'data_source_unavailable', 'tool server k8s: down')
          : tool === 'k8s:slow'
            ? new DomainError('timeout', 'timeout', 'too slow')
            : tool === 'k8s:bad'
              ? new DomainError('invalid_input', 'tool_rejected', 'no such pod')
              : new Error('boom'),
    });
    expect(await w.runner.call(external('down'), {})).toEqual({
      ok: false,
      code: 'data_source_unavailable',
      message: 'tool server k8s: down',
      unreachable: true,
    });
    expect((await w.runner.call(external('slow'), {})).ok).toBe(false);
    expect(await w.runner.call(external('bad'), {})).toMatchObject({
      code: 'tool_rejected',
      unreachable: false,
    });
    expect(await w.runner.call(external('weird'), {})).toMatchObject({
      code: 'internal',
      message: 'tool call failed',
    });
    expect([
      w.runner.externalAttempts,
      w.runner.externalSuccesses,
      w.runner.externalUnreachable,
    ]).toEqual([4, 0, 2]);
  });

  it('answers built-ins from the knowledge service, bounding top_k, never as an external call', async () => {
    const w = world();
    await w.runner.call(builtin('knowledge_search'), { query: 'oom', service: 'shop', top_k: 99 });
    await w.runner.call(builtin('similar_incidents'), { query: 'oom' });
    expect(await w.runner.call(builtin('learned_patterns'), { query: 'oom' })).toEqual({
      ok: true,
      output: { patterns: [] },
      truncated: false,
    });
    expect(w.knowledgeCalls).toEqual([
      ['retrieve', 'oom', { service: 'shop', topK: 20, levels: [] }],
      ['retrieve', 'oom', { service: undefined, topK: 5, levels: ['L3'] }],
      ['patterns', 'oom', { service: undefined, limit: 5 }],
    ]);
    expect(w.calls).toEqual([]);
    expect(w.runner.externalAttempts).toBe(0);
  });

  it('answers an empty result with a note when the knowledge service is down', async () => {
    const w = world({ knowledgeDown: true });
    expect((await w.runner.call(builtin('knowledge_search'), {})).ok).toBe(true);
    expect(await w.runner.call(builtin('similar_incidents'), {})).toMatchObject({
      output: { results: [], note: 'knowledge service unavailable' },
    });
    expect(await w.runner.call(builtin('learned_patterns'), {})).toMatchObject({
      output: { patterns: [], note: 'knowledge service unavailable' },
    });
  });

  it('refuses new calls once the investigation is aborted, with the abort reason', async () => {
    const w = world();
    w.ac.abort(new Error('investigation cancelled'));
    await expect(w.runner.call(external('list_pods'), {})).rejects.toThrow(
      'investigation cancelled',
    );
    expect(w.calls).toEqual([]);
  });
});
