import { WorldIndex, type KubeObject } from '../world';
import { aScenarioWorld } from '../testing/a-scenario-world';
import { describe as describeObject, rfc1123z } from './describe';

const w = new WorldIndex(aScenarioWorld());
const describeIn = (kind: string, name: string, namespace?: string, related: KubeObject[] = []) => {
  const obj = w.get(kind, name, namespace)!;
  return describeObject(obj, {
    events: w.events({ involved: { kind: obj.kind!, name, namespace } }),
    related,
    now: w.now,
  });
};

describe('describe (kubectl describe layout)', () => {
  it('describes a CrashLoopBackOff pod like kubectl', () => {
    const text = describeIn('pod', 'checkout-7d9f8b6c5-x2x4z', 'shop');
    expect(text).toContain(
      [
        'Name:             checkout-7d9f8b6c5-x2x4z',
        'Namespace:        shop',
        'Priority:         0',
        'Service Account:  checkout',
        'Node:             node-a/10.0.0.11',
        'Start Time:       Thu, 12 Mar 2026 10:05:00 +0000',
        'Labels:           app=checkout',
        '                  pod-template-hash=7d9f8b6c5',
        'Annotations:      <none>',
        'Status:           Running',
      ].join('\n'),
    );
    expect(text).toContain('Controlled By:  ReplicaSet/checkout-7d9f8b6c5\n');
    expect(text).toContain(
      [
        '    State:          Waiting',
        '      Reason:       CrashLoopBackOff',
        '    Last State:     Terminated',
        '      Reason:       Error',
        '      Exit Code:    1',
        '      Started:      Thu, 12 Mar 2026 10:27:41 +0000',
        '      Finished:     Thu, 12 Mar 2026 10:27:43 +0000',
        '    Ready:          False',
        '    Restart Count:  5',
        '    Limits:',
        '      cpu:     500m',
        '      memory:  256Mi',
      ].join('\n'),
    );
    expect(text).toContain(
      '    Liveness:   http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3\n',
    );
    expect(text).toContain(
      "      DB_PASSWORD:  <set to the key 'password' in secret 'checkout-db'>             Optional: false\n",
    );
    expect(text).toContain("<set to the key 'payment_url' of config map 'checkout-config'>");
    expect(text).toContain('      /etc/checkout from config (ro)\n');
    expect(text).toContain('Conditions:\n  Type                        Status\n');
    expect(text).toContain('  ContainersReady             False\n');
    expect(text).toContain('    Type:        ConfigMap (a volume populated by a ConfigMap)\n');
    expect(text).toContain('QoS Class:       Burstable\n');
    expect(text).toContain(
      'Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n',
    );
    expect(text).toContain(
      [
        'Events:',
        '  Type     Reason     Age                  From               Message',
        '  ----     ------     ----                 ----               -------',
        '  Normal   Scheduled  25m                  default-scheduler  Successfully assigned shop/checkout-7d9f8b6c5-x2x4z to node-a',
      ].join('\n'),
    );
    expect(text).toMatch(
      / {2}Warning {2}BackOff {4}50s \(x27 over 24m\) {3}kubelet {12}Back-off restarting/,
    );
  });

  it('describes a Pending pod with its scheduling failure', () => {
    const text = describeIn('pod', 'reports-6f7c9d8b5-abcde', 'shop');
    expect(text).toContain('Node:             <none>\n');
    expect(text).toContain('Status:           Pending\n');
    expect(text).toContain('    State:          Waiting\n');
    expect(text).toContain('Node-Selectors:  disktype=ssd\n');
    expect(text).toMatch(
      /Warning {2}FailedScheduling {2}5m \(x6 over 10m\) {2}default-scheduler {2}0\/2 nodes are available/,
    );
  });

  it('describes a Deployment with its ReplicaSets and template', () => {
    const text = describeIn('deploy', 'checkout', 'shop', w.list('rs', { namespace: 'shop' }));
    expect(text).toContain(
      'Replicas:               1 desired | 1 updated | 1 total | 0 available | 1 unavailable\n',
    );
    expect(text).toContain('StrategyType:           RollingUpdate\n');
    expect(text).toContain('Pod Template:\n  Labels:           app=checkout\n');
    expect(text).toContain('      Image:      registry.example.com/shop/checkout:1.8.0\n');
    expect(text).toContain('  Available      False   MinimumReplicasUnavailable\n');
    expect(text).toContain(
      'OldReplicaSets:  <none>\nNewReplicaSet:   checkout-7d9f8b6c5 (1/1 replicas created)\n',
    );
  });

  it('describes a failed Job', () => {
    const text = describeIn('job', 'nightly-report-29554680', 'shop');
    expect(text).toContain('Controlled By:    CronJob/nightly-report\n');
    expect(text).toContain('Backoff Limit:    2\n');
    expect(text).toContain('Pods Statuses:    0 Active (0 Ready) / 0 Succeeded / 3 Failed\n');
    expect(text).toContain(
      '  Failed         True    BackoffLimitExceeded  Job has reached the specified backoff limit\n',
    );
  });

  it('describes a NotReady node with conditions, taints and its pods', () => {
    const text = describeIn('node', 'node-b', undefined, w.list('pod'));
    expect(text).toContain('Taints:             node.kubernetes.io/unreachable:NoSchedule\n');
    expect(text).toContain(
      '  Ready            Unknown   Thu, 12 Mar 2026 10:11:20 +0000   Thu, 12 Mar 2026 10:12:05 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n',
    );
    expect(text).toContain('Non-terminated Pods:          (0 in total)\n');
    const a = describeIn('node', 'node-a', undefined, w.list('pod'));
    // checkout (250m, 128Mi) and coredns (100m, 70Mi) run on node-a; the failed job pod does not count
    expect(a).toContain('Non-terminated Pods:          (2 in total)\n');
    expect(a).toMatch(/ {2}cpu {7}350m \(8%\) {3}500m \(12%\)\n/);
  });

  it('describes an unbound PVC', () => {
    const text = describeIn('pvc', 'data-db-0', 'shop');
    expect(text).toContain('StorageClass:  fast-ssd\nStatus:        Pending\nVolume:\n');
    expect(text).toContain(
      'ProvisioningFailed  15s (x162 over 40m)  persistentvolume-controller  storageclass.storage.k8s.io "fast-ssd" not found',
    );
  });

  it('describes a Service with its endpoints, an HPA, a ConfigMap', () => {
    const svc = describeIn('svc', 'checkout', 'shop', w.list('ep', { namespace: 'shop' }));
    expect(svc).toContain(
      'Port:                     http  80/TCP\nTargetPort:               8080/TCP\nEndpoints:\n',
    );
    const hpa = describeIn('hpa', 'checkout', 'shop');
    expect(hpa).toContain(
      '  resource cpu on pods  (as a percentage of request):  12% (30m) / 70%\n',
    );
    expect(hpa).toContain(
      'Deployment pods:                                       1 current / 1 desired\n',
    );
    const cm = describeIn('cm', 'checkout-config', 'shop');
    expect(cm).toContain('Data\n====\napp.yaml:\n----\nretries: 3\ntimeout: 2s\n');
  });

  it('never prints a Secret value', () => {
    const text = describeIn('secret', 'checkout-db', 'shop');
    expect(text).toContain('password:  15 bytes\nusername:  8 bytes\n');
    expect(text).not.toContain('czNjcjN0');
    expect(text).not.toContain('s3cr3t');
  });

  it('describes RBAC, quotas and anything else', () => {
    const now = w.now;
    const role = describeObject(
      {
        kind: 'Role',
        metadata: { name: 'reader', namespace: 'shop' },
        rules: [
          { apiGroups: ['', 'apps'], resources: ['pods', 'deployments'], verbs: ['get', 'list'] },
        ],
      },
      { events: [], now },
    );
    expect(role).toContain('  Resources         Non-Resource URLs  Resource Names  Verbs\n');
    expect(role).toContain('  deployments.apps  []                 []              [get list]\n');
    const quota = describeObject(
      {
        kind: 'ResourceQuota',
        metadata: { name: 'compute', namespace: 'shop' },
        spec: { hard: { pods: '10', 'requests.cpu': '4' } },
        status: {
          hard: { pods: '10', 'requests.cpu': '4' },
          used: { pods: '10', 'requests.cpu': '3500m' },
        },
      },
      { events: [], now },
    );
    expect(quota).toContain(
      'Resource      Used   Hard\n--------      ----   ----\npods          10     10\nrequests.cpu  3500m  4\n',
    );
    const other = describeObject(
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'shop' },
        spec: { size: 3, parts: ['a'] },
      },
      { events: [], now },
    );
    expect(other).toContain('Kind:         Widget\n');
    expect(other).toContain('Spec:\n  Parts:\n    a\n  Size:  3\n');
  });

  it('formats times as Go RFC1123Z in UTC', () => {
    expect(rfc1123z('2026-03-12T10:05:00Z')).toBe('Thu, 12 Mar 2026 10:05:00 +0000');
    expect(rfc1123z(new Date('2026-01-01T00:00:00Z'))).toBe('Thu, 01 Jan 2026 00:00:00 +0000');
    expect(rfc1123z(undefined)).toBe('<unknown>');
  });
});

describe('describe: custom resources', () => {
  const w = new WorldIndex(aScenarioWorld({ customResources: true }));
  const now = w.now;

  it('prints metadata, the spec, the status conditions as a table and the events', () => {
    const ks = w.get('kustomization', 'apps', 'flux-system')!;
    const text = describeObject(ks, {
      events: w.events({ involved: { kind: 'Kustomization', name: 'apps' } }),
      now,
    });
    expect(text).toContain(
      'API Version:  kustomize.toolkit.fluxcd.io/v1\nKind:         Kustomization\n',
    );
    expect(text).toContain('  Generation:          7\n');
    expect(text).toContain('Spec:\n  Interval:  10m\n  Path:      ./apps/production\n');
    expect(text).toContain(
      '  Conditions:\n    Type     Status   Reason                Last Transition Time             Message\n' +
        '    ----     ------   ------                --------------------             -------\n' +
        '    Ready    False    ReconciliationFailed  Thu, 12 Mar 2026 10:05:00 +0000  Deployment/shop/checkout dry-run failed',
    );
    expect(text).toContain(
      'Events:\n  Type     Reason                Age               From                  Message\n',
    );
    expect(text).toContain('Warning  ReconciliationFailed  5m (x3 over 25m)  kustomize-controller');
  });

  it('bounds long values and long sections', () => {
    const big = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'big', namespace: 'apps' },
      spec: {
        values: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, i])),
        note: 'x'.repeat(500),
      },
    };
    const text = describeObject(big, { events: [], now });
    expect(text).toContain('... (123 more lines; get the object for all of it)');
    expect(text).toContain(`${'x'.repeat(300)}... (200 more characters)`);
    expect(text).toContain('Events:  <none>');
  });

  it('keeps a built-in kind name of another group off the built-in layout', () => {
    const ksvc = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata: { name: 'hello', namespace: 'shop' },
      spec: { template: { spec: { containers: [{ image: 'hello:1' }] } } },
    };
    const text = describeObject(ksvc, { events: [], now });
    expect(text).toContain('API Version:  serving.knative.dev/v1\n');
    expect(text).not.toContain('Endpoints:');
  });
});
