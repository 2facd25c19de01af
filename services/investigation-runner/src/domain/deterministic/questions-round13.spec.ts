/**
 * Four kinds of question about a namespace's state, each asked in words other than the bench's
 * and answered from outputs shaped like real ones (`kubectl get` tables and `kubectl describe`
 * text as libs/kube prints them, Kubernetes API objects as JSON): how close the namespace is to
 * its ResourceQuota, which pods were evicted in a window and why, what an environment variable
 * is set to in each Deployment, and which ServiceAccount a workload runs as with what is bound
 * to it.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  table,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const described = (o: Obj) => kubeDescribe(o, { events: [], now });

function deployment(name: string, ns: string, container: Obj, serviceAccountName?: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          ...(serviceAccountName ? { serviceAccountName } : {}),
          containers: [{ name: 'app', image: `registry.example.org/${name}:1.4.2`, ...container }],
        },
      },
    },
    status: { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 },
  };
}

function runningPod(name: string, ns: string, rs: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: ago(60 * 24 * 5),
      labels: { app: rs.replace(/-[a-z0-9]{8,10}$/, '') },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs }],
    },
    spec: {
      nodeName: 'ip-10-0-3-14.eu-west-1.compute.internal',
      containers: [{ name: 'app', image: 'registry.example.org/app:1.0' }],
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        { name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: ago(60) } } },
      ],
    },
  };
}

describe('questions of round 13: phrasings', () => {
  it.each([
    ['are we near the quota in batch?', 'quota'],
    ['quota usage for ns batch', 'quota'],
    ['how much of the resourcequota is left in batch', 'quota'],
    ['what got evicted today?', 'evicted'],
    ['which pods were evicted and why', 'evicted'],
    ['list the evictions in media since yesterday', 'evicted'],
    ['what is LOG_LEVEL set to in each deployment', 'env'],
    ['show the env var FEATURE_FLAGS per deployment in shop', 'env'],
    ['which service account does payouts-api use', 'service_account'],
    ['what permissions does payouts-api have?', 'service_account'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it.each([
    'pods in batch fail with exceeded quota: requests.cpu',
    'the drain is stuck: cannot evict pod web-0, it would violate the disruption budget',
    'checkout crashes at start: DATABASE_URL is not set',
    'payouts-api gets 403 forbidden listing secrets, what permissions does it lack?',
    "which pods logged 'UPSTREAM_TIMEOUT' since 10:00?",
    'which pods in payments use the STRIPE_API_KEY secret (env or mounted)?',
  ])('"%s" reports a failure, it asks no such question', (message) => {
    expect(
      ['quota', 'evicted', 'env', 'service_account'].includes(
        scopeIncident(message, {}, NOW).question?.type ?? '',
      ),
    ).toBe(false);
  });
});

describe('questions of round 13', () => {
  it('"quota usage for ns batch": used against hard per resource from `kubectl get quota` and its describe, the tightest first', async () => {
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'batch-quota', namespace: 'batch', creationTimestamp: ago(60 * 24 * 90) },
      spec: { hard: { 'requests.cpu': '16', 'requests.memory': '32Gi', pods: '40' } },
      status: {
        hard: { 'requests.cpu': '16', 'requests.memory': '32Gi', pods: '40' },
        used: { 'requests.cpu': '14500m', 'requests.memory': '22Gi', pods: '11' },
      },
    };
    const world: TextWorld = {
      tables: {
        pod: getTable(
          'Pod',
          [runningPod('etl-worker-8c47374733-f4b4e', 'batch', 'etl-worker-8c47374733')],
          { now },
        ),
        resourcequota: getTable('ResourceQuota', [quota], { now }),
      },
      describe: { 'resourcequota/batch-quota': described(quota) },
    };
    const { text } = await investigateAt(textTools(world), 'quota usage for ns batch', NOW);
    expect(text).toMatch(
      /ResourceQuota batch-quota \(used of hard, tightest first\): requests\.cpu 14500m of 16 \(91%, 1500m left\); requests\.memory 22Gi of 32Gi \(69%, 10Gi left\); pods 11 of 40 \(28%, 29 left\)/,
    );
    expect(text).toMatch(/closest to its limit is requests\.cpu at 91%/);
    // the same figures when only the description shows them
    const describedOnly: TextWorld = {
      ...world,
      tables: {
        pod: world.tables['pod']!,
        resourcequota: table(['NAME', 'AGE'], [['batch-quota', '90d']]),
      },
    };
    const { text: again } = await investigateAt(
      textTools(describedOnly),
      'we want two more etl-worker replicas (2 CPU / 3Gi each) in batch, are we near the quota?',
      NOW,
      'batch',
    );
    expect(again).toMatch(/requests\.cpu 14500m of 16 \(91%, 1500m left\)/);
    // what the planned pods need against what is left
    expect(again).toMatch(
      /Adding 2 more etl-worker pods would need requests\.cpu 4 \(1500m left: does not fit\), pods 2 \(29 left: fits\), requests\.memory 6Gi \(10Gi left: fits\): the quota would refuse them \(exceeded quota: requests\.cpu\)/,
    );
  });

  it('"what got evicted today?": the evictions since midnight with the kubelet\'s reason, an older eviction and an OOMKilled pod left out (API objects)', async () => {
    const ns = 'media';
    const evicted = (
      name: string,
      rs: string,
      at: string,
      message: string,
      withStatus = true,
    ): Obj => ({
      ...runningPod(name, ns, rs),
      status: {
        phase: 'Failed',
        ...(withStatus ? { reason: 'Evicted', message } : {}),
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'TerminationByKubelet',
            message,
            lastTransitionTime: at,
          },
        ],
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 0,
            state: {
              terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', finishedAt: at },
            },
          },
        ],
      },
    });
    const disk =
      'The node was low on resource: ephemeral-storage. Threshold quantity: 7622432632, available: 6811204Ki. Container app was using 14318820Ki, request is 0, has larger consumption of ephemeral-storage. ';
    const mem =
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91340Ki. Container app was using 1871220Ki, request is 512Mi, has larger consumption of memory. ';
    const world: ApiWorld = {
      objects: [
        runningPod('thumbnailer-5rk57xhddg-scbpw', ns, 'thumbnailer-5rk57xhddg'),
        evicted(
          'thumbnailer-5rk57xhddg-hk4wz',
          'thumbnailer-5rk57xhddg',
          '2026-03-10T02:14:30Z',
          disk,
        ),
        evicted(
          'video-probe-whsnnknrln-n8qcj',
          'video-probe-whsnnknrln',
          '2026-03-10T09:41:11Z',
          mem,
        ),
        evicted(
          'thumbnailer-5rk57xhddg-b2rlm',
          'thumbnailer-5rk57xhddg',
          '2026-03-07T01:58:10Z',
          disk,
        ),
        {
          ...runningPod('transcode-a-77120-vt9gm', ns, 'x'),
          metadata: {
            name: 'transcode-a-77120-vt9gm',
            namespace: ns,
            ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'transcode-a-77120' }],
          },
          status: {
            phase: 'Failed',
            containerStatuses: [
              {
                name: 'transcode',
                ready: false,
                restartCount: 0,
                state: {
                  terminated: {
                    exitCode: 137,
                    reason: 'OOMKilled',
                    finishedAt: '2026-03-10T07:13:01Z',
                  },
                },
              },
            ],
          },
        },
      ],
      events: [
        {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'thumbnailer-5rk57xhddg-hk4wz.1', namespace: ns },
          involvedObject: { kind: 'Pod', namespace: ns, name: 'thumbnailer-5rk57xhddg-hk4wz' },
          reason: 'Evicted',
          message: disk,
          type: 'Warning',
          firstTimestamp: '2026-03-10T02:14:30Z',
          lastTimestamp: '2026-03-10T02:14:30Z',
          count: 1,
        },
      ],
    };
    const { text } = await investigateAt(apiTools(world), 'what got evicted today?', NOW, ns);
    expect(text).toMatch(
      /2 pods were evicted in namespace media since 2026-03-10T00:00:00\.000Z \(1 for node low on ephemeral-storage, 1 for node low on memory\)/,
    );
    expect(text).toMatch(
      /thumbnailer-5rk57xhddg-hk4wz \(deployment thumbnailer\) at 2026-03-10T02:14:30\.000Z[^;]*low on resource: ephemeral-storage/,
    );
    expect(text).toMatch(
      /video-probe-whsnnknrln-n8qcj \(deployment video-probe\) at 2026-03-10T09:41:11\.000Z[^;]*low on resource: memory/,
    );
    expect(text).toMatch(/1 older eviction \(before the window\) is left out/);
    expect(text).not.toContain('b2rlm');
    expect(text).toMatch(/transcode-a-77120-vt9gm was OOMKilled[^.]*not an eviction/);
  });

  it('"what is LOG_LEVEL set to in each deployment?": env values, a ConfigMap key, envFrom and a Secret key, from `kubectl describe` (no Secret value shown)', async () => {
    const ns = 'payments';
    const deps = [
      deployment('payments-api', ns, { env: [{ name: 'LOG_LEVEL', value: 'info' }] }),
      deployment('payments-worker', ns, { env: [{ name: 'LOG_LEVEL', value: 'debug' }] }),
      deployment('refund-service', ns, {
        env: [
          {
            name: 'LOG_LEVEL',
            valueFrom: { configMapKeyRef: { name: 'refund-service-config', key: 'log-level' } },
          },
        ],
      }),
      deployment('fx-rates', ns, { envFrom: [{ configMapRef: { name: 'fx-rates-env' } }] }),
      deployment('ledger', ns, {
        env: [
          {
            name: 'LOG_LEVEL',
            valueFrom: { secretKeyRef: { name: 'ledger-secrets', key: 'level' } },
          },
        ],
      }),
      deployment('audit', ns, { env: [{ name: 'PORT', value: '8080' }] }),
    ];
    const maps = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'refund-service-config', namespace: ns },
        data: { 'log-level': 'warn', timeout: '30s' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'fx-rates-env', namespace: ns },
        data: { LOG_LEVEL: 'trace', CACHE_TTL: '300' },
      },
    ];
    const world: TextWorld = {
      tables: { deployment: getTable('Deployment', deps, { now, namespace: ns }) },
      describe: Object.fromEntries(
        [...deps, ...maps].map((o) => [
          `${String(o['kind']).toLowerCase()}/${String((o['metadata'] as Obj)['name'])}`,
          described(o),
        ]),
      ),
    };
    const { text } = await investigateAt(
      textTools(world),
      'what is LOG_LEVEL set to in each deployment?',
      NOW,
      ns,
    );
    expect(text).toContain('deployment payments-api: LOG_LEVEL=info (set in env)');
    expect(text).toContain('deployment payments-worker: LOG_LEVEL=debug (set in env)');
    expect(text).toContain(
      'deployment refund-service: LOG_LEVEL=warn (from ConfigMap refund-service-config key log-level)',
    );
    expect(text).toContain(
      'deployment fx-rates: LOG_LEVEL=trace (from ConfigMap fx-rates-env through envFrom)',
    );
    expect(text).toMatch(
      /deployment ledger: LOG_LEVEL \(from Secret ledger-secrets key level: a Secret's value is never shown\)/,
    );
    expect(text).toMatch(/Not set in: deployment audit\./);
  });

  it('"which service account does payouts-api use, and what can it do?": its pod template\'s ServiceAccount and the roles bound to it, not those of the account named after it (bindings read whole)', async () => {
    const ns = 'payments';
    const binding = (name: string, role: string, sa: string, kind = 'RoleBinding'): Obj => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind,
      metadata: {
        name,
        ...(kind === 'RoleBinding' ? { namespace: ns } : {}),
        creationTimestamp: ago(60 * 24 * 60),
      },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole',
        name: role,
      },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
    });
    const role = (name: string, rules: Obj[]): Obj => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace: ns },
      rules,
    });
    const bindings = [
      binding('payouts-runtime-secrets', 'payout-secrets-reader', 'payouts-runtime'),
      binding('payouts-leader-election', 'leader-election', 'payouts-runtime'),
      binding('payouts-api', 'payouts-api', 'payouts-api'),
      binding('payouts-worker-configmaps', 'configmap-writer', 'payouts-worker'),
    ];
    const world: ApiWorld = {
      objects: [
        deployment('payouts-api', ns, {}, 'payouts-runtime'),
        runningPod('payouts-api-7d9b6c8f5c-q7dnb', ns, 'payouts-api-7d9b6c8f5c'),
        {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'payouts-api', namespace: ns },
        },
        {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'payouts-runtime', namespace: ns },
        },
        ...bindings,
        role('payout-secrets-reader', [
          {
            apiGroups: [''],
            resources: ['secrets'],
            resourceNames: ['payouts-signing-key'],
            verbs: ['get', 'watch'],
          },
        ]),
        role('leader-election', [
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'update'] },
        ]),
        role('payouts-api', [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }]),
      ],
      // `kubectl get rolebindings` without -o wide shows no subjects
      tables: { rolebinding: getTable('RoleBinding', bindings, { now, namespace: ns }) },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'which service account does payouts-api use, and what can it do?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /deployment payouts-api \(namespace payments\) runs as ServiceAccount payouts-runtime/,
    );
    expect(text).toMatch(
      /A ServiceAccount named payouts-api exists too, but its pods do not run as it/,
    );
    expect(text).toMatch(
      /Role payout-secrets-reader through RoleBinding payouts-runtime-secrets \(get,watch secrets \[payouts-signing-key\]\)/,
    );
    expect(text).toMatch(/Role leader-election through RoleBinding payouts-leader-election/);
    expect(text).not.toMatch(/configmap-writer|Role payouts-api through/);
  });
});
