/**
 * The engine rules of round31 (r31a) (cause-catalog.data.ts, its "round31 (r31a)" block, the rule
 * that compares objects in diagnose-r31a.ts), one test per rule, each with a near miss where it
 * must not fire: an OpenTelemetry Collector OOMKilled with no memory_limiter in its pipelines.
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const collectorConfig = (processors: string) =>
  [
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      grpc:',
    '        endpoint: 0.0.0.0:4317',
    '      http:',
    '        endpoint: 0.0.0.0:4318',
    'processors:',
    '  batch:',
    '    send_batch_size: 4096',
    '    timeout: 2s',
    '  memory_limiter:',
    '    check_interval: 1s',
    '    limit_percentage: 80',
    '    spike_limit_percentage: 20',
    'exporters:',
    '  otlp/traces:',
    '    endpoint: traces-backend.telemetry.svc:4317',
    '    sending_queue:',
    '      enabled: true',
    '      queue_size: 5000',
    'service:',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    `      processors: [${processors}]`,
    '      exporters: [otlp/traces]',
    '',
  ].join('\n');

describe('round31 rules (r31a): an OpenTelemetry Collector without a memory_limiter', () => {
  it('an OOMKilled collector whose pipeline runs no memory_limiter names the processor list and the queue; one with memory_limiter first: not this rule', async () => {
    const ns = 'telemetry';
    const app = 'trace-gw';
    const image = 'otel/opentelemetry-collector-contrib:0.110.0';
    const world = (processors: string): ApiWorld => {
      const pod = podObj({
        name: `${app}-7c9d8b6f5-aaaaa`,
        ns,
        labels: { app },
        owner: { kind: 'ReplicaSet', name: `${app}-7c9d8b6f5` },
        boxes: [
          {
            name: 'otelcol',
            image,
            restarts: 9,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            resources: { limits: { memory: '2Gi' }, requests: { memory: '1Gi' } },
          },
        ],
      }) as { spec: Obj };
      pod.spec['volumes'] = [{ name: 'conf', configMap: { name: `${app}-config` } }];
      (pod.spec['containers'] as Obj[])[0]!['volumeMounts'] = [
        { name: 'conf', mountPath: '/conf' },
      ];
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj(app, ns, [image], 1, 0),
          pod as unknown as Obj,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `${app}-config`, namespace: ns },
            data: { 'config.yaml': collectorConfig(processors) },
          },
        ],
      };
    };
    const ask = `${app} in ${ns} keeps restarting, why?`;
    const bad = answerOf((await investigateAt(apiTools(world('batch')), ask, NOW, ns)).result);
    expect(bad).toContain('no memory_limiter processor');
    expect(bad).toContain('processors: [batch]');
    expect(bad).toContain('queue_size 5000');
    const guarded = answerOf(
      (await investigateAt(apiTools(world('memory_limiter, batch')), ask, NOW, ns)).result,
    );
    expect(guarded).not.toContain('no memory_limiter processor');
    expect(guarded).toContain('OOMKilled');
  });
});
