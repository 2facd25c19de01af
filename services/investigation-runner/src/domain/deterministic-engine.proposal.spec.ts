import type { ProgressRecord } from '@inquest/store';
import { DeterministicEngine } from './deterministic-engine';
import type { EngineRun } from './engine';
import type { KnowledgeSource, ToolDescriptor, ToolGateway } from './ports';

const NOW = Date.parse('2026-03-01T10:30:00Z');
const tool = (
  name: string,
  description: string,
  props: string[],
  annotations = {},
): ToolDescriptor => ({
  fullName: `k8s:${name}`,
  server: 'k8s',
  name,
  description,
  parameters: {
    type: 'object',
    properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
    required: props,
  },
  annotations,
});

const TOOLS = [
  tool('list_pods', 'List pods of a namespace', ['namespace'], { readOnlyHint: true }),
  tool('get_events', 'Events of a namespace', ['namespace'], { readOnlyHint: true }),
  tool('get_pod_logs', 'Logs of a pod', ['namespace', 'pod'], { readOnlyHint: true }),
  tool(
    'rollback_deployment',
    'Roll a deployment back to its previous revision',
    ['namespace', 'deployment'],
    {
      destructiveHint: true,
    },
  ),
];

function gateway(calls: string[]): ToolGateway {
  return {
    listTools: async () => ({
      tools: TOOLS,
      servers: [{ name: 'k8s', enabled: true, healthy: true, breakerState: 'closed' }],
    }),
    callTool: async (_t, _i, name, params) => {
      calls.push(name);
      if (name === 'k8s:list_pods')
        return {
          truncated: false,
          output: {
            pods: [
              {
                name: 'cart-58d7f9c6b4-q2v8n',
                status: 'CrashLoopBackOff',
                restarts: 6,
                app: 'cart',
              },
            ],
          },
        };
      if (name === 'k8s:get_events')
        return {
          truncated: false,
          output: {
            events: [
              {
                type: 'Normal',
                reason: 'ScalingReplicaSet',
                object: 'deployment/cart',
                message: 'Scaled up replica set cart-58d7f9c6b4 to 1 (image registry/cart:2.14.0)',
                last_seen: '2026-03-01T10:10:00Z',
              },
              {
                type: 'Warning',
                reason: 'BackOff',
                object: `pod/cart-58d7f9c6b4-q2v8n`,
                message: 'Back-off restarting failed container cart',
                last_seen: '2026-03-01T10:14:00Z',
              },
            ],
          },
        };
      if (name === 'k8s:get_pod_logs')
        return {
          truncated: false,
          output: {
            pod: params['pod'],
            lines: [
              '2026-03-01T10:12:00Z INFO starting cart 2.14.0',
              '2026-03-01T10:12:01Z panic: runtime error: invalid memory address or nil pointer dereference',
            ],
          },
        };
      throw new Error(`unexpected call ${name}`);
    },
  };
}

const knowledge: KnowledgeSource = { retrieve: async () => [], listPatterns: async () => [] };

async function investigate(flags: Record<string, boolean>) {
  const calls: string[] = [];
  const engine = new DeterministicEngine(gateway(calls), knowledge, { clock: () => NOW });
  const run: EngineRun = {
    teamId: 't',
    investigationId: 'i',
    agent: 'k8s_agent',
    message: 'cart keeps restarting',
    context: { service: 'cart', namespace: 'shop' },
    effective: { feature_flags: flags },
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
    progress: (_p: ProgressRecord) => undefined,
  };
  const out = await engine.run(run);
  return { ...out, calls };
}

describe('proposed actions', () => {
  it('with write actions and auto-mitigation on, the rollback is proposed, never run', async () => {
    const { result, calls, toolsUsed } = await investigate({
      enable_write_actions: true,
      enable_auto_mitigation: true,
    });
    expect(result.root_cause.description).toMatch(/panic/);
    expect(result.root_cause.description).toMatch(/2\.14\.0/);
    const rollback = result.recommendations.find((r) => r.proposed_action);
    expect(rollback?.proposed_action).toEqual({
      tool: 'k8s:rollback_deployment',
      parameters: { namespace: 'shop', deployment: 'cart' },
    });
    expect(calls).not.toContain('k8s:rollback_deployment');
    expect(toolsUsed).not.toContain('k8s:rollback_deployment');
  });

  it.each([[{ enable_write_actions: true }], [{ enable_auto_mitigation: true }], [{}]])(
    'proposes nothing unless both flags are on (%j)',
    async (flags) => {
      const { result, calls } = await investigate(flags);
      expect(result.recommendations.some((r) => r.proposed_action)).toBe(false);
      expect(calls).not.toContain('k8s:rollback_deployment');
    },
  );
});
