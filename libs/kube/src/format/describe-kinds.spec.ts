import type { KubeObject } from '../world';
import { describe as describeObject } from './describe';

const now = new Date('2026-03-12T10:30:00Z');
const meta = (name: string, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  creationTimestamp: '2026-03-10T10:30:00Z',
});
const d = (obj: KubeObject, related: KubeObject[] = []) =>
  describeObject(obj, { events: [], related, now });

describe('describe: the other kinds', () => {
  it('StatefulSet: replicas, update strategy, volume claims', () => {
    const text = d({
      kind: 'StatefulSet',
      metadata: meta('db', 'shop'),
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'db' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'pg', image: 'postgres:16' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              storageClassName: 'fast',
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: '10Gi' } },
            },
          },
        ],
      },
      status: { replicas: 2 },
    });
    expect(text).toContain('Replicas:           3 desired | 2 total\n');
    expect(text).toContain('Volume Claims:\n  Name:          data\n  StorageClass:  fast\n');
    expect(text).toContain('  Capacity:      10Gi\n  Access Modes:  ReadWriteOnce\n');
  });

  it('DaemonSet: scheduling counts and pod statuses', () => {
    const pods = [
      { kind: 'Pod', metadata: meta('a', 'kube-system'), status: { phase: 'Running' } },
      { kind: 'Pod', metadata: meta('b', 'kube-system'), status: { phase: 'Pending' } },
    ];
    const text = d(
      {
        kind: 'DaemonSet',
        metadata: meta('kube-proxy', 'kube-system'),
        spec: {
          selector: { matchLabels: { k: 'p' } },
          template: { spec: { containers: [{ name: 'p', image: 'kube-proxy:v1.30.4' }] } },
        },
        status: {
          desiredNumberScheduled: 2,
          currentNumberScheduled: 2,
          updatedNumberScheduled: 2,
          numberAvailable: 1,
          numberMisscheduled: 0,
        },
      },
      pods,
    );
    expect(text).toContain('Desired Number of Nodes Scheduled:               2\n');
    expect(text).toContain(
      'Pods Status:                                     1 Running / 1 Waiting / 0 Succeeded / 0 Failed\n',
    );
  });

  it('PodDisruptionBudget: the budget, its selector and the disruptions it allows', () => {
    const text = d({
      kind: 'PodDisruptionBudget',
      metadata: meta('ledger-writer', 'ledger'),
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'ledger-writer' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 },
    });
    expect(text).toBe(
      [
        'Name:           ledger-writer',
        'Namespace:      ledger',
        'Min available:  2',
        'Selector:       app=ledger-writer',
        'Status:',
        '    Allowed disruptions:  0',
        '    Current:              2',
        '    Desired:              2',
        '    Total:                2',
        'Events:                   <none>',
        '',
      ].join('\n'),
    );
    const other = d({
      kind: 'PodDisruptionBudget',
      metadata: meta('api', 'shop'),
      spec: { maxUnavailable: '25%' },
    });
    expect(other).toContain('Max unavailable:  25%\n');
    expect(other).toContain('Selector:         <unset>\n');
  });

  it('Ingress: rules with backends', () => {
    const endpoints: KubeObject = {
      kind: 'Endpoints',
      metadata: meta('web', 'shop'),
      subsets: [{ addresses: [{ ip: '10.244.1.7' }], ports: [{ port: 8080 }] }],
    };
    const text = d(
      {
        kind: 'Ingress',
        metadata: meta('web', 'shop'),
        spec: {
          ingressClassName: 'nginx',
          rules: [
            {
              host: 'shop.example.com',
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'web', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } },
      },
      [endpoints],
    );
    expect(text).toContain('Address:          203.0.113.10\nIngress Class:    nginx\n');
    expect(text).toContain(
      '  Host              Path  Backends\n  ----              ----  --------\n  shop.example.com\n                    /   web:80 (10.244.1.7:8080)\n',
    );
  });

  it('PersistentVolume, Namespace, LimitRange, ServiceAccount, RoleBinding', () => {
    const pv = d({
      kind: 'PersistentVolume',
      metadata: meta('pv-1'),
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: 'nfs',
        claimRef: { namespace: 'shop', name: 'uploads' },
        nfs: { server: '10.0.0.5', path: '/exports' },
      },
      status: { phase: 'Bound' },
    });
    expect(pv).toContain(
      'Claim:           shop/uploads\nReclaim Policy:  Retain\nAccess Modes:    RWX\n',
    );
    expect(pv).toContain('    Type:    nfs\n    Server:  10.0.0.5\n    Path:    /exports\n');

    const lr: KubeObject = {
      kind: 'LimitRange',
      metadata: meta('limits', 'shop'),
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m' },
            defaultRequest: { cpu: '100m' },
            max: { cpu: '2' },
          },
        ],
      },
    };
    expect(d(lr)).toContain('Container   cpu       -    2    100m             500m           -\n');
    const ns = d({ kind: 'Namespace', metadata: meta('shop'), status: { phase: 'Active' } }, [lr]);
    expect(ns).toContain('Status:       Active\n\nNo resource quota.\n\nResource Limits\n');

    const sa = d({
      kind: 'ServiceAccount',
      metadata: meta('app', 'shop'),
      imagePullSecrets: [{ name: 'regcred' }],
    });
    expect(sa).toContain('Image pull secrets:  regcred\nMountable secrets:   <none>\n');
    const rb = d({
      kind: 'RoleBinding',
      metadata: meta('read', 'shop'),
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'shop' }],
    });
    expect(rb).toContain(
      'Role:\n  Kind:  Role\n  Name:  reader\nSubjects:\n  Kind            Name  Namespace\n  ----            ----  ---------\n  ServiceAccount  app   shop\n',
    );
  });
});
