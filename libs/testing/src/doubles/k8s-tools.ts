import type { ScriptedTool } from './tool-service-double';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
/** 2026-03-01T10:00Z plus `minutes`, as the scripted tools report times. */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/**
 * A small scripted Kubernetes tool server `k8s` telling one story: list_pods shows
 * checkout-7d9f8b6c5-x2x4z in CrashLoopBackOff (OOMKilled), describe_pod shows a rollout at 10:00
 * then OOM kills, get_pod_logs ends in an OutOfMemoryError. Fresh objects on every call, so a
 * test may replace a handler.
 */
export function k8sTools(): ScriptedTool[] {
  return [
    {
      server: 'k8s',
      name: 'list_pods',
      description: 'List pods in a Kubernetes namespace',
      parameters: {
        type: 'object',
        properties: { namespace: { type: 'string' } },
        required: ['namespace'],
      },
      handler: async (p) => ({
        pods: [
          {
            name: 'checkout-7d9f8b6c5-x2x4z',
            namespace: p['namespace'],
            status: 'CrashLoopBackOff',
            restarts: 7,
            lastState: { reason: 'OOMKilled', exitCode: 137, finishedAt: at(12) },
          },
          {
            name: 'cart-5c8d7b9f4-abcde',
            namespace: p['namespace'],
            status: 'Running',
            restarts: 0,
          },
        ],
      }),
    },
    {
      server: 'k8s',
      name: 'describe_pod',
      description: 'Describe a pod',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string' }, namespace: { type: 'string' } },
        required: ['name', 'namespace'],
      },
      handler: async (p) => ({
        name: p['name'],
        events: [
          {
            timestamp: at(0),
            reason: 'ScalingReplicaSet',
            message: 'deployment checkout rolled out image checkout:2.4.0',
          },
          {
            timestamp: at(10),
            reason: 'Killing',
            message: 'Container checkout exceeded memory limit: OOMKilled',
          },
          {
            timestamp: at(12),
            reason: 'BackOff',
            message: 'Back-off restarting failed container checkout',
          },
        ],
      }),
    },
    {
      server: 'k8s',
      name: 'get_pod_logs',
      description: 'Logs of a pod',
      parameters: {
        type: 'object',
        properties: { pod: { type: 'string' }, namespace: { type: 'string' } },
        required: ['pod'],
      },
      handler: async (p) => ({
        value: `${at(9)} INFO cache warmed for ${String(p['pod'])}\n${at(10)} ERROR java.lang.OutOfMemoryError: Java heap space\n${at(10)} FATAL Out of memory: Killed process 1 (java)`,
      }),
    },
  ];
}
