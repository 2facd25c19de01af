import {
  KINDS,
  builtinKindOf,
  customKind,
  guessPlural,
  isBuiltinKind,
  parseKindQuery,
  resolveKind,
  resolveKindIn,
} from './kinds';

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

describe('custom resource kinds', () => {
  const catalogue = [
    customKind('argoproj.io/v1alpha1', 'Application', true, {
      plural: 'applications',
      singular: 'application',
      shortNames: ['app', 'apps'],
    }),
    customKind('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', true, {
      plural: 'kustomizations',
      shortNames: ['ks'],
    }),
    customKind('cert-manager.io/v1', 'Certificate', true, { shortNames: ['cert', 'certs'] }),
    customKind('serving.knative.dev/v1', 'Service', true, { shortNames: ['kservice', 'ksvc'] }),
    customKind('cluster.x-k8s.io/v1beta1', 'Cluster', true),
    customKind('postgresql.cnpg.io/v1', 'Cluster', true),
  ];

  it('derives a plural and a singular when discovery does not give them', () => {
    expect(customKind('cert-manager.io/v1', 'ClusterIssuer', false)).toEqual({
      kind: 'ClusterIssuer',
      group: 'cert-manager.io',
      version: 'v1',
      apiVersion: 'cert-manager.io/v1',
      plural: 'clusterissuers',
      namespaced: false,
      shortNames: [],
      singular: 'clusterissuer',
      custom: true,
    });
    expect(customKind('v1', 'Binding', true)).toMatchObject({ group: '', apiVersion: 'v1' });
    expect(['Kustomization', 'GitRepository', 'Ingress'].map(guessPlural)).toEqual([
      'kustomizations',
      'gitrepositories',
      'ingresses',
    ]);
  });

  it.each([
    ['applications.argoproj.io', 'argoproj.io', 'Application'],
    ['Application', 'argoproj.io', 'Application'],
    ['application', 'argoproj.io', 'Application'],
    ['app', 'argoproj.io', 'Application'],
    ['applications.v1alpha1.argoproj.io', 'argoproj.io', 'Application'],
    ['applications.argoproj.io/v1alpha1', 'argoproj.io', 'Application'],
    ['argoproj.io/v1alpha1/applications', 'argoproj.io', 'Application'],
    ['Kustomization', 'kustomize.toolkit.fluxcd.io', 'Kustomization'],
    ['kustomizations.kustomize.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io', 'Kustomization'],
    ['ks', 'kustomize.toolkit.fluxcd.io', 'Kustomization'],
    ['certificate', 'cert-manager.io', 'Certificate'],
    ['certs', 'cert-manager.io', 'Certificate'],
    // a built-in name stays the built-in, as in kubectl; the group reaches the CRD
    ['service', '', 'Service'],
    ['svc', '', 'Service'],
    ['services.serving.knative.dev', 'serving.knative.dev', 'Service'],
    ['ksvc', 'serving.knative.dev', 'Service'],
    ['deploy', 'apps', 'Deployment'],
    // two CRDs with one name: the first discovery lists, unless the group says
    ['cluster', 'cluster.x-k8s.io', 'Cluster'],
    ['clusters.postgresql.cnpg.io', 'postgresql.cnpg.io', 'Cluster'],
  ])('%s -> %s %s', (input, group, kind) => {
    expect(resolveKindIn(input, catalogue)).toMatchObject({ group, kind });
  });

  it.each(['widgets', 'applications.example.com', 'applications.v1beta1.argoproj.io', ''])(
    'refuses %j',
    (input) => {
      expect(resolveKindIn(input, catalogue)).toBeUndefined();
    },
  );

  it('tells built-in objects from custom ones by their group', () => {
    expect(builtinKindOf({ apiVersion: 'v1', kind: 'Service' })?.plural).toBe('services');
    expect(builtinKindOf({ kind: 'Service' })?.plural).toBe('services');
    expect(
      builtinKindOf({ apiVersion: 'serving.knative.dev/v1', kind: 'Service' }),
    ).toBeUndefined();
    expect(
      builtinKindOf({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application' }),
    ).toBeUndefined();
    expect(isBuiltinKind(resolveKind('svc')!)).toBe(true);
    expect(isBuiltinKind(catalogue[3]!)).toBe(false);
  });

  it('parses the forms kubectl takes', () => {
    expect(parseKindQuery('deployments.v1.apps')).toEqual({
      name: 'deployments',
      group: 'apps',
      version: 'v1',
    });
    expect(parseKindQuery('v1/pods')).toEqual({ name: 'pods', version: 'v1' });
    expect(parseKindQuery('pods.core')).toEqual({ name: 'pods', group: '' });
    expect(parseKindQuery('a/b/c/d')).toBeUndefined();
  });
});
