import { KINDS, resolveKind } from './kinds';

describe('resolveKind', () => {
  it.each([
    ['pod', 'Pod'],
    ['pods', 'Pod'],
    ['po', 'Pod'],
    ['Pod', 'Pod'],
    ['deploy', 'Deployment'],
    ['deployment.apps', 'Deployment'],
    ['deployments.apps/v1', 'Deployment'],
    ['deployments.v1.apps', 'Deployment'],
    ['hpa', 'HorizontalPodAutoscaler'],
    ['pvc', 'PersistentVolumeClaim'],
    ['cm', 'ConfigMap'],
    ['svc', 'Service'],
    ['ns', 'Namespace'],
    ['no', 'Node'],
    ['sts', 'StatefulSet'],
    ['ds', 'DaemonSet'],
    ['rs', 'ReplicaSet'],
    ['cj', 'CronJob'],
    ['ing', 'Ingress'],
    ['sa', 'ServiceAccount'],
    ['quota', 'ResourceQuota'],
    ['limits', 'LimitRange'],
    ['ev', 'Event'],
    ['pv', 'PersistentVolume'],
    ['sc', 'StorageClass'],
    ['ep', 'Endpoints'],
    ['endpointslices', 'EndpointSlice'],
    ['pdb', 'PodDisruptionBudget'],
    ['netpol', 'NetworkPolicy'],
    ['clusterrolebinding', 'ClusterRoleBinding'],
    ['v1/pods', 'Pod'],
    [' Jobs ', 'Job'],
  ])('%s -> %s', (input, kind) => {
    expect(resolveKind(input)?.kind).toBe(kind);
  });

  it.each(['', 'widgets', 'deployment.batch', 'deployments.apps/v2', 'pods.v1.apps'])(
    'refuses %j',
    (input) => {
      expect(resolveKind(input)).toBeUndefined();
    },
  );

  it('describes where each kind lives', () => {
    expect(resolveKind('hpa')).toEqual({
      kind: 'HorizontalPodAutoscaler',
      group: 'autoscaling',
      version: 'v2',
      apiVersion: 'autoscaling/v2',
      plural: 'horizontalpodautoscalers',
      namespaced: true,
      shortNames: ['hpa'],
    });
    expect(resolveKind('node')).toMatchObject({ apiVersion: 'v1', namespaced: false });
    expect(new Set(KINDS.map((k) => k.kind)).size).toBe(KINDS.length);
  });
});
