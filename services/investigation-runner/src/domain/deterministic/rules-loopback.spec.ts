/**
 * A dependency refused on the pod's own loopback address (finding-vars-configuration.ts
 * `loopbackTarget`, the gatherer's ConfigMap read for it, the dependency_refused pattern's host),
 * with near misses: inside a pod, localhost is the pod itself, so a host carried over from a VM or
 * docker-compose (DB_HOST=localhost) reaches nothing; a sidecar's call to its app's port, and an app
 * whose own container declares the port, are not that.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  serviceObj,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;
const ns = 'billing';
const image = 'registry.example.com/invoice-worker:0.9.0';

const crashing = (name: string, ports: number[]): Box => ({
  name,
  image,
  ready: false,
  restarts: 6,
  ports: ports.map((p) => ({ name: `p${p}`, containerPort: p, protocol: 'TCP' })),
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 2m40s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 1, startedAt: ago(3), finishedAt: ago(3) },
  },
});

/** the line a pgx client logs when nothing answers on the pod's own port 5432 (JSON-escaped) */
const refused = `{"time":"${ago(3)}","level":"ERROR","msg":"database not reachable","err":"failed to connect to \`user=invoice database=billing\`:\\n\\t[::1]:5432 (localhost): dial error: dial tcp [::1]:5432: connect: connection refused\\n\\t127.0.0.1:5432 (localhost): dial error: dial tcp 127.0.0.1:5432: connect: connection refused"}`;

function world(boxes: Box[]): ApiWorld {
  const pod = podObj({
    name: 'invoice-worker-7d9f8c6b5-q2x7p',
    ns,
    labels: { app: 'invoice-worker', 'pod-template-hash': '7d9f8c6b5' },
    owner: { kind: 'ReplicaSet', name: 'invoice-worker-7d9f8c6b5' },
    created: 40,
    boxes,
  });
  const containers = (pod['spec'] as { containers: Obj[] }).containers;
  containers[0]!['envFrom'] = [{ configMapRef: { name: 'invoice-worker-config' } }];
  return {
    objects: [
      namespaceObj(ns),
      deploymentObj('invoice-worker', ns, [image], 1, 0),
      pod,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'invoice-worker-config', namespace: ns },
        data: { DB_HOST: 'localhost', DB_PORT: '5432', LOG_FORMAT: 'json' },
      },
      serviceObj('billing-db', ns, { app: 'billing-db' }, 5432, { portName: 'postgres' }),
    ],
    previous: {
      'invoice-worker-7d9f8c6b5-q2x7p': `${ago(4)} starting invoice-worker 0.9.0\n${refused}`,
    },
    logs: { 'invoice-worker-7d9f8c6b5-q2x7p': '' },
  };
}

const ask =
  'invoice-worker is in CrashLoopBackOff since we moved it from the old VM, is the db down?';

describe('a dependency refused on the pod itself (localhost)', () => {
  it('names localhost as the pod itself, the ConfigMap key that sets it and the Service that serves the port; the host is 127.0.0.1:5432, not the "t" of an escaped tab', async () => {
    const a = answerOf(
      (await investigateAt(apiTools(world([crashing('worker', [8080])])), ask, NOW, ns)).result,
    );
    expect(a).toContain('cannot connect to 127.0.0.1:5432');
    expect(a).not.toContain('t127.0.0.1');
    expect(a).toContain('127.0.0.1:5432 is the pod itself');
    expect(a).toContain('ConfigMap invoice-worker-config sets DB_HOST=localhost');
    expect(a).toContain('billing-db');
  });

  it('near misses: a pod of two containers (a sidecar may listen there), a container that declares the port itself', async () => {
    const two = world([
      crashing('worker', [8080]),
      { name: 'proxy', image: 'envoy:1.31', ready: true },
    ]);
    const a = answerOf((await investigateAt(apiTools(two), ask, NOW, ns)).result);
    expect(a).toContain('127.0.0.1:5432');
    expect(a).not.toContain('is the pod itself');
    const declares = answerOf(
      (await investigateAt(apiTools(world([crashing('worker', [8080, 5432])])), ask, NOW, ns))
        .result,
    );
    expect(declares).not.toContain('is the pod itself');
  });
});
