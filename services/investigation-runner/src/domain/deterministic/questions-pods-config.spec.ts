/**
 * Questions about what pods declare (questions-pods-config.ts), each with a near miss:
 * - "which pods on node X have a PersistentVolumeClaim mounted?": the pods bound to X that mount a
 *   claim, not those of other nodes, and not a pod there without one;
 * - "which workloads still run an exec liveness or readiness probe with timeoutSeconds 1?": an
 *   unset timeoutSeconds counts as 1 (the API's default); an exec probe of 5s, and an httpGet probe
 *   of 1s when the question asks about exec probes, are not listed.
 */
import {
  NOW,
  answerOf,
  apiTools,
  investigateAt,
  namespaceObj,
  podObj,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const nodeObj = (name: string, zone: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

const pod = (name: string, ns: string, app: string, node: string, claims?: string[]) =>
  podObj({
    name,
    ns,
    labels: { app },
    owner: { kind: 'StatefulSet', name: app },
    node,
    boxes: [{ name: app, image: `registry.example.com/${app}:1.0` }],
    ...(claims ? { claims } : {}),
  });

describe('which pods on a node mount a PersistentVolumeClaim', () => {
  const world: ApiWorld = {
    objects: [
      namespaceObj('data'),
      nodeObj('worker-2.eu-west-1.compute.internal', 'eu-west-1b'),
      nodeObj('worker-1.eu-west-1.compute.internal', 'eu-west-1a'),
      pod('orders-pg-0', 'data', 'orders-pg', 'worker-2.eu-west-1.compute.internal', [
        'data-orders-pg-0',
      ]),
      pod('orders-pg-1', 'data', 'orders-pg', 'worker-1.eu-west-1.compute.internal', [
        'data-orders-pg-1',
      ]),
      pod('cache-0', 'data', 'cache', 'worker-2.eu-west-1.compute.internal'),
    ],
  };

  it('names the pods of that node with their claims and the zone; a pod of another node and one without a claim are left out', async () => {
    const a = answerOf(
      (
        await investigateAt(
          apiTools(world),
          'We drain worker-2 tonight. Which pods on that node have a PersistentVolumeClaim mounted?',
          NOW,
        )
      ).result,
    );
    expect(a).toContain(
      '1 pod on node worker-2.eu-west-1.compute.internal (zone eu-west-1b) mounts a PersistentVolumeClaim: data/orders-pg-0 (data-orders-pg-0)',
    );
    expect(a).not.toContain('orders-pg-1');
    expect(a).toContain('The other 1 pod there mounts none');
  });
});

describe('which workloads run a probe with a given timeout', () => {
  const probe = (kind: 'exec' | 'http', timeoutSeconds?: number): Obj => ({
    ...(kind === 'exec'
      ? { exec: { command: ['redis-cli', 'ping'] } }
      : { httpGet: { path: '/healthz', port: 8080 } }),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    periodSeconds: 10,
  });
  const withProbes = (o: Obj, probes: Obj): Obj => {
    const c = (o['spec'] as { containers: Obj[] }).containers[0]!;
    Object.assign(c, probes);
    return o;
  };
  const world: ApiWorld = {
    objects: [
      namespaceObj('data'),
      withProbes(pod('redis-0', 'data', 'redis', 'worker-1'), {
        livenessProbe: probe('exec'),
        readinessProbe: probe('exec', 1),
      }),
      withProbes(pod('mongodb-0', 'data', 'mongodb', 'worker-1'), {
        livenessProbe: probe('exec', 5),
      }),
      withProbes(pod('kafka-ui-0', 'data', 'kafka-ui', 'worker-1'), {
        readinessProbe: probe('http', 1),
      }),
    ],
  };

  it('lists exec probes at 1s (unset counts as 1s); an exec probe of 5s and an http probe of 1s are left out', async () => {
    const a = answerOf(
      (
        await investigateAt(
          apiTools(world),
          'Which workloads in data still run an exec liveness or readiness probe with timeoutSeconds 1?',
          NOW,
          'data',
        )
      ).result,
    );
    expect(a).toContain(
      '1 workload in namespace data runs an exec liveness or readiness probe with a timeout of 1s',
    );
    expect(a).toContain('statefulset redis (liveness of redis, readiness of redis)');
    expect(a).not.toContain('mongodb (');
    expect(a).not.toContain('kafka-ui (');
  });
});
