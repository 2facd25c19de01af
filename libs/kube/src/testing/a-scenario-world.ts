import type { KubeObject, ScenarioWorld } from '../world';

const NOW = '2026-03-12T10:30:00Z';

/** A stable, UUID-shaped uid per object (owner references and events point at it). */
function uidOf(kind: string, namespace: string | undefined, name: string): string {
  let h = 2166136261;
  for (const ch of `${kind}/${namespace ?? ''}/${name}`)
    h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const hex = (h.toString(16).padStart(8, '0') + name.length.toString(16).padStart(4, '0')).slice(
    0,
    12,
  );
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(1, 4)}-8${hex.slice(4, 7)}-${hex}`;
}

const meta = (
  name: string,
  namespace: string | undefined,
  created: string,
  extra: Record<string, unknown> = {},
) => ({
  name,
  ...(namespace ? { namespace } : {}),
  resourceVersion: '1001',
  creationTimestamp: created,
  ...extra,
});

const owner = (kind: string, apiVersion: string, name: string, namespace: string) => ({
  apiVersion,
  kind,
  name,
  uid: uidOf(kind, namespace, name),
  controller: true,
  blockOwnerDeletion: true,
});

function event(
  namespace: string,
  name: string,
  involved: { kind: string; name: string; namespace?: string; fieldPath?: string },
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  first: string,
  last: string,
  count: number,
  component: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(name, namespace, first),
    involvedObject: {
      kind: involved.kind,
      namespace: involved.namespace ?? (involved.kind === 'Node' ? undefined : namespace),
      name: involved.name,
      uid: uidOf(involved.kind, involved.kind === 'Node' ? undefined : namespace, involved.name),
      apiVersion:
        involved.kind === 'Pod' ||
        involved.kind === 'Node' ||
        involved.kind === 'PersistentVolumeClaim'
          ? 'v1'
          : 'apps/v1',
      ...(involved.fieldPath ? { fieldPath: involved.fieldPath } : {}),
    },
    reason,
    message,
    source: { component, ...(component === 'kubelet' ? { host: 'node-a' } : {}) },
    firstTimestamp: first,
    lastTimestamp: last,
    count,
    type,
    reportingComponent: component,
    reportingInstance: '',
  };
}

const checkoutLabels = { app: 'checkout', 'pod-template-hash': '7d9f8b6c5' };

const checkoutTemplate = (image: string) => ({
  metadata: { labels: { app: 'checkout' } },
  spec: {
    containers: [
      {
        name: 'app',
        image,
        ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
        env: [
          { name: 'LOG_LEVEL', value: 'info' },
          {
            name: 'DB_PASSWORD',
            valueFrom: { secretKeyRef: { name: 'checkout-db', key: 'password' } },
          },
          {
            name: 'PAYMENT_URL',
            valueFrom: { configMapKeyRef: { name: 'checkout-config', key: 'payment_url' } },
          },
        ],
        resources: {
          limits: { cpu: '500m', memory: '256Mi' },
          requests: { cpu: '250m', memory: '128Mi' },
        },
        livenessProbe: {
          httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        readinessProbe: {
          httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' },
          initialDelaySeconds: 5,
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        volumeMounts: [{ name: 'config', mountPath: '/etc/checkout', readOnly: true }],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    volumes: [{ name: 'config', configMap: { name: 'checkout-config', defaultMode: 420 } }],
    restartPolicy: 'Always',
    serviceAccountName: 'checkout',
  },
});

/**
 * Custom resources of a GitOps-managed cluster, with the events their controllers record: an
 * Argo CD Application whose sync failed (argocd/pricing-api: OutOfSync, Degraded), a Flux
 * Kustomization that is not Ready (flux-system/apps: dry-run failed, field is immutable) and its
 * GitRepository, a cert-manager ClusterIssuer (cluster-scoped) that is Ready.
 */
export function customResourceObjects(): KubeObject[] {
  const crEvent = (e: KubeObject, apiVersion: string): KubeObject => ({
    ...e,
    involvedObject: { ...e.involvedObject, apiVersion },
  });
  const objects: KubeObject[] = [
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: meta('pricing-api', 'argocd', '2026-02-01T09:00:00Z', {
        labels: { team: 'pricing' },
        generation: 42,
      }),
      spec: {
        project: 'default',
        source: {
          repoURL: 'https://git.example.com/platform/deploy.git',
          path: 'apps/pricing-api',
          targetRevision: 'main',
        },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'pricing' },
        syncPolicy: { automated: { prune: true, selfHeal: true } },
      },
      status: {
        sync: { status: 'OutOfSync', revision: '9f2c1e7' },
        health: { status: 'Degraded' },
        conditions: [
          {
            type: 'SyncError',
            message:
              'Failed sync attempt to 9f2c1e7: one or more objects failed to apply, reason: ConfigMap "pricing-limits" is invalid: data: Forbidden: field is immutable when `immutable` is set',
            lastTransitionTime: '2026-03-12T10:10:00Z',
          },
        ],
        operationState: {
          phase: 'Failed',
          message: 'one or more objects failed to apply',
          startedAt: '2026-03-12T10:09:58Z',
          finishedAt: '2026-03-12T10:10:00Z',
        },
      },
    },
    {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: meta('apps', 'flux-system', '2026-01-15T12:00:00Z', { generation: 7 }),
      spec: {
        interval: '10m',
        path: './apps/production',
        prune: true,
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      },
      status: {
        observedGeneration: 7,
        lastAppliedRevision: 'main@sha1:41d2b9a0',
        lastAttemptedRevision: 'main@sha1:7c3e5f12',
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'ReconciliationFailed',
            message:
              'Deployment/shop/checkout dry-run failed: Deployment.apps "checkout" is invalid: spec.selector: Invalid value: field is immutable',
            lastTransitionTime: '2026-03-12T10:05:00Z',
            observedGeneration: 7,
          },
          {
            type: 'Healthy',
            status: 'Unknown',
            reason: 'ReconciliationFailed',
            message: 'health check canceled due to reconciliation failure',
            lastTransitionTime: '2026-03-12T10:05:00Z',
          },
        ],
      },
    },
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: meta('flux-system', 'flux-system', '2026-01-15T12:00:00Z'),
      spec: {
        interval: '1m',
        url: 'ssh://git@git.example.com/platform/fleet',
        ref: { branch: 'main' },
      },
      status: {
        artifact: { revision: 'main@sha1:7c3e5f12' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Succeeded',
            message: "stored artifact for revision 'main@sha1:7c3e5f12'",
            lastTransitionTime: '2026-03-12T10:04:30Z',
          },
        ],
      },
    },
    {
      apiVersion: 'cert-manager.io/v1',
      kind: 'ClusterIssuer',
      metadata: meta('letsencrypt-prod', undefined, '2026-01-10T08:00:00Z'),
      spec: { acme: { server: 'https://acme-v02.api.letsencrypt.org/directory' } },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ACMEAccountRegistered',
            message: 'The ACME account was registered with the ACME server',
            lastTransitionTime: '2026-01-10T08:01:00Z',
          },
        ],
      },
    },
    crEvent(
      event(
        'flux-system',
        'apps.17bc3c0000000001',
        { kind: 'Kustomization', name: 'apps' },
        'Warning',
        'ReconciliationFailed',
        'Deployment/shop/checkout dry-run failed: Deployment.apps "checkout" is invalid: spec.selector: Invalid value: field is immutable',
        '2026-03-12T10:05:00Z',
        '2026-03-12T10:25:00Z',
        3,
        'kustomize-controller',
      ),
      'kustomize.toolkit.fluxcd.io/v1',
    ),
    crEvent(
      event(
        'argocd',
        'pricing-api.17bc3d0000000001',
        { kind: 'Application', name: 'pricing-api' },
        'Warning',
        'OperationCompleted',
        'Sync operation to 9f2c1e7 failed: one or more objects failed to apply',
        '2026-03-12T10:10:00Z',
        '2026-03-12T10:10:00Z',
        1,
        'argocd-application-controller',
      ),
      'argoproj.io/v1alpha1',
    ),
  ];
  for (const o of objects) {
    if (o.kind !== 'Event')
      o.metadata!.uid = uidOf(o.kind!, o.metadata!.namespace, o.metadata!.name!);
  }
  return objects;
}

/**
 * A small, consistent world for tests: a CrashLoopBackOff pod with a previous log (shop/checkout),
 * a Pending pod that cannot be scheduled (shop/reports), a failed Job of a CronJob
 * (shop/nightly-report), an unbound PVC (shop/data-db-0, missing StorageClass), a NotReady node
 * (node-b), healthy coredns in kube-system, metrics unless `metrics: false`; with
 * `customResources: true` also customResourceObjects() (Argo CD, Flux, cert-manager).
 */
export function aScenarioWorld(
  opts: { metrics?: boolean; customResources?: boolean } = {},
): ScenarioWorld {
  const objects: KubeObject[] = [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta('shop', undefined, '2026-01-10T08:00:00Z', {
        labels: { 'kubernetes.io/metadata.name': 'shop' },
      }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    },
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta('kube-system', undefined, '2026-01-01T00:00:00Z', {
        labels: { 'kubernetes.io/metadata.name': 'kube-system' },
      }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta('node-a', undefined, '2026-01-01T00:00:00Z', {
        labels: {
          'kubernetes.io/hostname': 'node-a',
          'kubernetes.io/os': 'linux',
          'node-role.kubernetes.io/worker': '',
        },
        annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
      }),
      spec: { podCIDR: '10.244.1.0/24' },
      status: {
        capacity: { cpu: '4', memory: '16331900Ki', pods: '110', 'ephemeral-storage': '102350Mi' },
        allocatable: {
          cpu: '3920m',
          memory: '15410300Ki',
          pods: '110',
          'ephemeral-storage': '94318Mi',
        },
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'False',
            lastHeartbeatTime: '2026-03-12T10:29:40Z',
            lastTransitionTime: '2026-01-01T00:01:00Z',
            reason: 'KubeletHasSufficientMemory',
            message: 'kubelet has sufficient memory available',
          },
          {
            type: 'DiskPressure',
            status: 'False',
            lastHeartbeatTime: '2026-03-12T10:29:40Z',
            lastTransitionTime: '2026-01-01T00:01:00Z',
            reason: 'KubeletHasNoDiskPressure',
            message: 'kubelet has no disk pressure',
          },
          {
            type: 'PIDPressure',
            status: 'False',
            lastHeartbeatTime: '2026-03-12T10:29:40Z',
            lastTransitionTime: '2026-01-01T00:01:00Z',
            reason: 'KubeletHasSufficientPID',
            message: 'kubelet has sufficient PID available',
          },
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: '2026-03-12T10:29:40Z',
            lastTransitionTime: '2026-01-01T00:01:30Z',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          },
        ],
        addresses: [
          { type: 'InternalIP', address: '10.0.0.11' },
          { type: 'Hostname', address: 'node-a' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.30.4',
          containerRuntimeVersion: 'containerd://1.7.20',
          osImage: 'Ubuntu 22.04.4 LTS',
          kernelVersion: '5.15.0-117-generic',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta('node-b', undefined, '2026-01-01T00:00:00Z', {
        labels: {
          'kubernetes.io/hostname': 'node-b',
          'kubernetes.io/os': 'linux',
          'node-role.kubernetes.io/worker': '',
        },
      }),
      spec: {
        podCIDR: '10.244.2.0/24',
        taints: [
          {
            key: 'node.kubernetes.io/unreachable',
            effect: 'NoSchedule',
            timeAdded: '2026-03-12T10:12:05Z',
          },
          {
            key: 'node.kubernetes.io/unreachable',
            effect: 'NoExecute',
            timeAdded: '2026-03-12T10:12:10Z',
          },
        ],
      },
      status: {
        capacity: { cpu: '4', memory: '16331900Ki', pods: '110' },
        allocatable: { cpu: '3920m', memory: '15410300Ki', pods: '110' },
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'Unknown',
            lastHeartbeatTime: '2026-03-12T10:11:20Z',
            lastTransitionTime: '2026-03-12T10:12:05Z',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
          },
          {
            type: 'Ready',
            status: 'Unknown',
            lastHeartbeatTime: '2026-03-12T10:11:20Z',
            lastTransitionTime: '2026-03-12T10:12:05Z',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
          },
        ],
        addresses: [
          { type: 'InternalIP', address: '10.0.0.12' },
          { type: 'Hostname', address: 'node-b' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.30.4',
          containerRuntimeVersion: 'containerd://1.7.20',
          osImage: 'Ubuntu 22.04.4 LTS',
          kernelVersion: '5.15.0-117-generic',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('checkout', 'shop', '2026-02-01T09:00:00Z', {
        labels: { app: 'checkout' },
        annotations: { 'deployment.kubernetes.io/revision': '2' },
        generation: 2,
      }),
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'checkout' } },
        template: checkoutTemplate('registry.example.com/shop/checkout:1.8.0'),
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
        },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {
        observedGeneration: 2,
        replicas: 1,
        updatedReplicas: 1,
        unavailableReplicas: 1,
        conditions: [
          {
            type: 'Available',
            status: 'False',
            lastUpdateTime: '2026-03-12T10:05:30Z',
            lastTransitionTime: '2026-03-12T10:05:30Z',
            reason: 'MinimumReplicasUnavailable',
            message: 'Deployment does not have minimum availability.',
          },
          {
            type: 'Progressing',
            status: 'True',
            lastUpdateTime: '2026-03-12T10:05:00Z',
            lastTransitionTime: '2026-02-01T09:00:00Z',
            reason: 'NewReplicaSetAvailable',
            message: 'ReplicaSet "checkout-7d9f8b6c5" has successfully progressed.',
          },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('checkout-5c8d7b9f4', 'shop', '2026-02-01T09:00:00Z', {
        labels: { app: 'checkout', 'pod-template-hash': '5c8d7b9f4' },
        annotations: {
          'deployment.kubernetes.io/revision': '1',
          'kubernetes.io/change-cause': 'initial release 1.7.2',
        },
        ownerReferences: [owner('Deployment', 'apps/v1', 'checkout', 'shop')],
      }),
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'checkout', 'pod-template-hash': '5c8d7b9f4' } },
        template: checkoutTemplate('registry.example.com/shop/checkout:1.7.2'),
      },
      status: { replicas: 0, observedGeneration: 3 },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('checkout-7d9f8b6c5', 'shop', '2026-03-12T10:04:50Z', {
        labels: checkoutLabels,
        annotations: {
          'deployment.kubernetes.io/revision': '2',
          'kubernetes.io/change-cause': 'bump to 1.8.0',
        },
        ownerReferences: [owner('Deployment', 'apps/v1', 'checkout', 'shop')],
      }),
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'checkout', 'pod-template-hash': '7d9f8b6c5' } },
        template: checkoutTemplate('registry.example.com/shop/checkout:1.8.0'),
      },
      status: { replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('checkout-7d9f8b6c5-x2x4z', 'shop', '2026-03-12T10:05:00Z', {
        labels: checkoutLabels,
        generateName: 'checkout-7d9f8b6c5-',
        ownerReferences: [owner('ReplicaSet', 'apps/v1', 'checkout-7d9f8b6c5', 'shop')],
      }),
      spec: {
        ...checkoutTemplate('registry.example.com/shop/checkout:1.8.0').spec,
        nodeName: 'node-a',
        tolerations: [
          {
            key: 'node.kubernetes.io/not-ready',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 300,
          },
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 300,
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodReadyToStartContainers',
            status: 'True',
            lastTransitionTime: '2026-03-12T10:05:02Z',
          },
          { type: 'Initialized', status: 'True', lastTransitionTime: '2026-03-12T10:05:00Z' },
          {
            type: 'Ready',
            status: 'False',
            lastTransitionTime: '2026-03-12T10:05:00Z',
            reason: 'ContainersNotReady',
            message: 'containers with unready status: [app]',
          },
          {
            type: 'ContainersReady',
            status: 'False',
            lastTransitionTime: '2026-03-12T10:05:00Z',
            reason: 'ContainersNotReady',
            message: 'containers with unready status: [app]',
          },
          { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-03-12T10:05:00Z' },
        ],
        hostIP: '10.0.0.11',
        podIP: '10.244.1.23',
        podIPs: [{ ip: '10.244.1.23' }],
        startTime: '2026-03-12T10:05:00Z',
        qosClass: 'Burstable',
        containerStatuses: [
          {
            name: 'app',
            state: {
              waiting: {
                reason: 'CrashLoopBackOff',
                message:
                  'back-off 2m40s restarting failed container=app pod=checkout-7d9f8b6c5-x2x4z_shop(c0ffee00-1111-4222-8333-444455556666)',
              },
            },
            lastState: {
              terminated: {
                exitCode: 1,
                reason: 'Error',
                startedAt: '2026-03-12T10:27:41Z',
                finishedAt: '2026-03-12T10:27:43Z',
                containerID: 'containerd://5f1c2a',
              },
            },
            ready: false,
            restartCount: 5,
            image: 'registry.example.com/shop/checkout:1.8.0',
            imageID: 'registry.example.com/shop/checkout@sha256:4b1e0d2a5c6f',
            containerID: 'containerd://5f1c2a',
            started: false,
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('reports-6f7c9d8b5-abcde', 'shop', '2026-03-12T10:20:00Z', {
        labels: { app: 'reports', 'pod-template-hash': '6f7c9d8b5' },
      }),
      spec: {
        containers: [
          {
            name: 'reports',
            image: 'registry.example.com/shop/reports:2.0.1',
            resources: { requests: { cpu: '8', memory: '2Gi' } },
          },
        ],
        nodeSelector: { disktype: 'ssd' },
        restartPolicy: 'Always',
      },
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            lastTransitionTime: '2026-03-12T10:20:00Z',
            reason: 'Unschedulable',
            message:
              "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
          },
        ],
        qosClass: 'Burstable',
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('nightly-report', 'shop', '2026-02-01T09:00:00Z'),
      spec: {
        schedule: '0 2 * * *',
        concurrencyPolicy: 'Forbid',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: {
          spec: {
            backoffLimit: 2,
            template: {
              spec: {
                containers: [{ name: 'report', image: 'registry.example.com/shop/report:3.1' }],
                restartPolicy: 'Never',
              },
            },
          },
        },
      },
      status: { lastScheduleTime: '2026-03-12T02:00:00Z' },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta('nightly-report-29554680', 'shop', '2026-03-12T02:00:00Z', {
        labels: { 'batch.kubernetes.io/job-name': 'nightly-report-29554680' },
        ownerReferences: [owner('CronJob', 'batch/v1', 'nightly-report', 'shop')],
      }),
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 2,
        completionMode: 'NonIndexed',
        selector: {
          matchLabels: {
            'batch.kubernetes.io/controller-uid': uidOf('Job', 'shop', 'nightly-report-29554680'),
          },
        },
        template: {
          metadata: { labels: { 'batch.kubernetes.io/job-name': 'nightly-report-29554680' } },
          spec: {
            containers: [{ name: 'report', image: 'registry.example.com/shop/report:3.1' }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {
        startTime: '2026-03-12T02:00:00Z',
        failed: 3,
        conditions: [
          {
            type: 'FailureTarget',
            status: 'True',
            lastProbeTime: '2026-03-12T02:01:10Z',
            lastTransitionTime: '2026-03-12T02:01:10Z',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          },
          {
            type: 'Failed',
            status: 'True',
            lastProbeTime: '2026-03-12T02:01:10Z',
            lastTransitionTime: '2026-03-12T02:01:10Z',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('nightly-report-29554680-q7k2m', 'shop', '2026-03-12T02:00:40Z', {
        labels: {
          'batch.kubernetes.io/job-name': 'nightly-report-29554680',
          'batch.kubernetes.io/controller-uid': uidOf('Job', 'shop', 'nightly-report-29554680'),
        },
        ownerReferences: [owner('Job', 'batch/v1', 'nightly-report-29554680', 'shop')],
      }),
      spec: {
        containers: [{ name: 'report', image: 'registry.example.com/shop/report:3.1' }],
        restartPolicy: 'Never',
        nodeName: 'node-a',
      },
      status: {
        phase: 'Failed',
        hostIP: '10.0.0.11',
        podIP: '10.244.1.31',
        startTime: '2026-03-12T02:00:40Z',
        qosClass: 'BestEffort',
        containerStatuses: [
          {
            name: 'report',
            state: {
              terminated: {
                exitCode: 2,
                reason: 'Error',
                startedAt: '2026-03-12T02:00:41Z',
                finishedAt: '2026-03-12T02:01:05Z',
              },
            },
            lastState: {},
            ready: false,
            restartCount: 0,
            image: 'registry.example.com/shop/report:3.1',
            imageID: '',
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta('data-db-0', 'shop', '2026-03-12T09:50:00Z', {
        labels: { app: 'db' },
        finalizers: ['kubernetes.io/pvc-protection'],
      }),
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '10Gi' } },
        storageClassName: 'fast-ssd',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Pending' },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta('uploads', 'shop', '2026-02-01T09:00:00Z'),
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '5Gi' } },
        storageClassName: 'standard',
        volumeName: 'pvc-3b1f',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: meta('pvc-3b1f', undefined, '2026-02-01T09:00:05Z'),
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'standard',
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'shop', name: 'uploads' },
        hostPath: { path: '/var/lib/volumes/pvc-3b1f', type: '' },
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: meta('standard', undefined, '2026-01-01T00:00:00Z', {
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      }),
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('checkout', 'shop', '2026-02-01T09:00:00Z', { labels: { app: 'checkout' } }),
      spec: {
        type: 'ClusterIP',
        selector: { app: 'checkout' },
        clusterIP: '10.96.12.34',
        clusterIPs: ['10.96.12.34'],
        ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
        sessionAffinity: 'None',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
      },
      status: { loadBalancer: {} },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('checkout', 'shop', '2026-02-01T09:00:00Z', { labels: { app: 'checkout' } }),
      subsets: [
        {
          notReadyAddresses: [
            {
              ip: '10.244.1.23',
              nodeName: 'node-a',
              targetRef: { kind: 'Pod', namespace: 'shop', name: 'checkout-7d9f8b6c5-x2x4z' },
            },
          ],
          ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        },
      ],
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('checkout-config', 'shop', '2026-02-01T09:00:00Z'),
      data: {
        payment_url: 'http://payments.shop.svc:8080',
        'app.yaml': 'retries: 3\ntimeout: 2s\n',
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('checkout-db', 'shop', '2026-02-01T09:00:00Z'),
      type: 'Opaque',
      data: { password: 'czNjcjN0LXBhc3N3b3Jk', username: 'Y2hlY2tvdXQ=' },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta('checkout', 'shop', '2026-02-01T09:00:00Z'),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
      },
      status: {
        currentReplicas: 1,
        desiredReplicas: 1,
        currentMetrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '30m' } },
          },
        ],
        conditions: [
          {
            type: 'AbleToScale',
            status: 'True',
            lastTransitionTime: '2026-02-01T09:01:00Z',
            reason: 'ReadyForNewScale',
            message: 'recommended size matches current size',
          },
          {
            type: 'ScalingActive',
            status: 'True',
            lastTransitionTime: '2026-02-01T09:01:00Z',
            reason: 'ValidMetricFound',
            message:
              'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
          },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('coredns', 'kube-system', '2026-01-01T00:00:00Z', {
        labels: { 'k8s-app': 'kube-dns' },
        annotations: { 'deployment.kubernetes.io/revision': '1' },
      }),
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'k8s-app': 'kube-dns' } },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-dns' } },
          spec: {
            containers: [
              {
                name: 'coredns',
                image: 'registry.k8s.io/coredns/coredns:v1.11.1',
                args: ['-conf', '/etc/coredns/Corefile'],
              },
            ],
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
      },
      status: {
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastUpdateTime: '2026-01-01T00:01:00Z',
            lastTransitionTime: '2026-01-01T00:01:00Z',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('coredns-76f75df574', 'kube-system', '2026-01-01T00:00:00Z', {
        labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '76f75df574' },
        annotations: { 'deployment.kubernetes.io/revision': '1' },
        ownerReferences: [owner('Deployment', 'apps/v1', 'coredns', 'kube-system')],
      }),
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '76f75df574' } },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-dns' } },
          spec: {
            containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }],
          },
        },
      },
      status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('coredns-76f75df574-9xk2p', 'kube-system', '2026-01-01T00:00:30Z', {
        labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '76f75df574' },
        ownerReferences: [owner('ReplicaSet', 'apps/v1', 'coredns-76f75df574', 'kube-system')],
      }),
      spec: {
        containers: [
          {
            name: 'coredns',
            image: 'registry.k8s.io/coredns/coredns:v1.11.1',
            resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
          },
        ],
        nodeName: 'node-a',
        priorityClassName: 'system-cluster-critical',
      },
      status: {
        phase: 'Running',
        hostIP: '10.0.0.11',
        podIP: '10.244.1.2',
        startTime: '2026-01-01T00:00:30Z',
        qosClass: 'Burstable',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:40Z' }],
        containerStatuses: [
          {
            name: 'coredns',
            state: { running: { startedAt: '2026-01-01T00:00:35Z' } },
            lastState: {},
            ready: true,
            restartCount: 0,
            image: 'registry.k8s.io/coredns/coredns:v1.11.1',
            imageID: '',
            started: true,
          },
        ],
      },
    },
    event(
      'shop',
      'checkout-7d9f8b6c5-x2x4z.17bc1f2a3d4e5f60',
      { kind: 'Pod', name: 'checkout-7d9f8b6c5-x2x4z' },
      'Normal',
      'Scheduled',
      'Successfully assigned shop/checkout-7d9f8b6c5-x2x4z to node-a',
      '2026-03-12T10:05:00Z',
      '2026-03-12T10:05:00Z',
      1,
      'default-scheduler',
    ),
    event(
      'shop',
      'checkout-7d9f8b6c5-x2x4z.17bc1f2a3d4e5f61',
      { kind: 'Pod', name: 'checkout-7d9f8b6c5-x2x4z', fieldPath: 'spec.containers{app}' },
      'Normal',
      'Pulled',
      'Container image "registry.example.com/shop/checkout:1.8.0" already present on machine',
      '2026-03-12T10:05:02Z',
      '2026-03-12T10:27:40Z',
      6,
      'kubelet',
    ),
    event(
      'shop',
      'checkout-7d9f8b6c5-x2x4z.17bc1f2a3d4e5f62',
      { kind: 'Pod', name: 'checkout-7d9f8b6c5-x2x4z', fieldPath: 'spec.containers{app}' },
      'Warning',
      'BackOff',
      'Back-off restarting failed container app in pod checkout-7d9f8b6c5-x2x4z_shop(c0ffee00-1111-4222-8333-444455556666)',
      '2026-03-12T10:05:20Z',
      '2026-03-12T10:29:10Z',
      27,
      'kubelet',
    ),
    event(
      'shop',
      'checkout.17bc1f0000000001',
      { kind: 'Deployment', name: 'checkout' },
      'Normal',
      'ScalingReplicaSet',
      'Scaled up replica set checkout-7d9f8b6c5 to 1',
      '2026-03-12T10:04:50Z',
      '2026-03-12T10:04:50Z',
      1,
      'deployment-controller',
    ),
    event(
      'shop',
      'checkout.17bc1f0000000002',
      { kind: 'Deployment', name: 'checkout' },
      'Normal',
      'ScalingReplicaSet',
      'Scaled down replica set checkout-5c8d7b9f4 to 0 from 1',
      '2026-03-12T10:05:00Z',
      '2026-03-12T10:05:00Z',
      1,
      'deployment-controller',
    ),
    event(
      'shop',
      'reports-6f7c9d8b5-abcde.17bc2a0000000001',
      { kind: 'Pod', name: 'reports-6f7c9d8b5-abcde' },
      'Warning',
      'FailedScheduling',
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      '2026-03-12T10:20:00Z',
      '2026-03-12T10:25:00Z',
      6,
      'default-scheduler',
    ),
    event(
      'shop',
      'nightly-report-29554680.17bb0000000001',
      { kind: 'Job', name: 'nightly-report-29554680' },
      'Normal',
      'SuccessfulCreate',
      'Created pod: nightly-report-29554680-q7k2m',
      '2026-03-12T02:00:40Z',
      '2026-03-12T02:00:40Z',
      1,
      'job-controller',
    ),
    event(
      'shop',
      'nightly-report-29554680.17bb0000000002',
      { kind: 'Job', name: 'nightly-report-29554680' },
      'Warning',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
      '2026-03-12T02:01:10Z',
      '2026-03-12T02:01:10Z',
      1,
      'job-controller',
    ),
    event(
      'shop',
      'data-db-0.17bc3b0000000001',
      { kind: 'PersistentVolumeClaim', name: 'data-db-0' },
      'Warning',
      'ProvisioningFailed',
      'storageclass.storage.k8s.io "fast-ssd" not found',
      '2026-03-12T09:50:00Z',
      '2026-03-12T10:29:45Z',
      162,
      'persistentvolume-controller',
    ),
    event(
      'default',
      'node-b.17bc1e0000000001',
      { kind: 'Node', name: 'node-b', namespace: '' },
      'Normal',
      'NodeNotReady',
      'Node node-b status is now: NodeNotReady',
      '2026-03-12T10:12:05Z',
      '2026-03-12T10:12:05Z',
      1,
      'node-controller',
    ),
  ];
  for (const o of objects) {
    o.metadata!.uid = uidOf(o.kind!, o.metadata!.namespace, o.metadata!.name!);
  }
  if (opts.customResources) objects.push(...customResourceObjects());
  return {
    id: 'test-world',
    class: 'crashloop_config',
    title: 'checkout cannot start; a report job failed; a PVC is unbound; node-b is NotReady',
    now: NOW,
    request: { message: 'what is wrong in shop?', context: { namespace: 'shop' } },
    objects,
    logs: [
      {
        namespace: 'shop',
        pod: 'checkout-7d9f8b6c5-x2x4z',
        container: 'app',
        previous: true,
        text:
          '2026-03-12T10:27:41Z INFO starting checkout 1.8.0\n' +
          '2026-03-12T10:27:42Z INFO loading /etc/checkout/app.yaml\n' +
          '2026-03-12T10:27:43Z ERROR missing required environment variable PAYMENT_API_KEY\n' +
          '2026-03-12T10:27:43Z FATAL exiting with status 1\n',
      },
      {
        namespace: 'shop',
        pod: 'checkout-7d9f8b6c5-x2x4z',
        container: 'app',
        previous: false,
        text: '',
      },
      {
        namespace: 'shop',
        pod: 'nightly-report-29554680-q7k2m',
        container: 'report',
        text: '2026-03-12T02:00:41Z starting report\n2026-03-12T02:01:05Z Traceback (most recent call last):\n  File "report.py", line 12, in <module>\nKeyError: \'REPORT_BUCKET\'\n',
      },
      {
        namespace: 'kube-system',
        pod: 'coredns-76f75df574-9xk2p',
        container: 'coredns',
        text: '.:53\n[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5\nCoreDNS-1.11.1\nlinux/amd64, go1.20.7, ae2bbc2\n',
      },
    ],
    ...(opts.metrics === false
      ? {}
      : {
          metrics: {
            pods: [
              {
                namespace: 'kube-system',
                name: 'coredns-76f75df574-9xk2p',
                containers: [{ name: 'coredns', cpu: '3m', memory: '18Mi' }],
              },
              {
                namespace: 'shop',
                name: 'checkout-7d9f8b6c5-x2x4z',
                containers: [{ name: 'app', cpu: '1m', memory: '12Mi' }],
              },
            ],
            nodes: [{ name: 'node-a', cpu: '412m', memory: '3120Mi' }],
          },
        }),
  };
}
