/**
 * The engine rules of round18g, "my change is not live" while every pod of the service is
 * healthy: what should have applied the change says why. A Flux Kustomization whose dry-run fails
 * on an immutable field (its event in flux-system, the kustomize-controller's log), an Argo CD
 * sync that fails on an immutable ConfigMap (the application controller's log, long after the
 * last retry), Argo CD syncs refused because etcd is out of space (NOSPACE), and a CI deploy Job
 * in another namespace whose Ingress the ingress-nginx admission webhook denied (host and path
 * already defined in another Ingress). Each with a world where the rule must not fire.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  type ApiWorld,
} from './spec-world';
type Obj = Record<string, unknown>;

/** ISO time `minutes` before NOW */
const at = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

/** a running, ready pod of a Deployment's ReplicaSet `<app>-<hash>` */
const appPod = (app: string, ns: string, image: string, suffix = 'x7k2p'): Obj =>
  podObj({
    name: `${app}-6d7f9c8b54-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': '6d7f9c8b54' },
    owner: { kind: 'ReplicaSet', name: `${app}-6d7f9c8b54` },
    boxes: [{ name: app, image }],
  });

/** a controller pod of a StatefulSet or Deployment in a system namespace */
const systemPod = (name: string, ns: string, owner: { kind: string; name: string }): Obj =>
  podObj({
    name,
    ns,
    labels: { app: owner.name },
    owner,
    boxes: [{ name: 'manager', image: `${owner.name}:v1` }],
  });

/** a world: the service's namespace with its healthy app, and the system namespaces given */
function world(o: {
  ns: string;
  app: string;
  image: string;
  more?: Obj[];
  events?: Obj[];
  logs?: Record<string, string>;
}): ApiWorld {
  return {
    objects: [
      namespaceObj(o.ns),
      deploymentObj(o.app, o.ns, [o.image], 2, 2),
      appPod(o.app, o.ns, o.image),
      appPod(o.app, o.ns, o.image, 'q9w4r'),
      ...(o.more ?? []),
    ],
    events: o.events ?? [],
    logs: o.logs ?? {},
  };
}

const FLUX_FAILED =
  'Deployment/shop/checkout dry-run failed (Invalid): Deployment.apps "checkout" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app.kubernetes.io/name":"checkout"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable';

describe('round18g rules: a change that is not live', () => {
  it('a Flux Kustomization whose dry-run fails on an immutable field (its event in flux-system, the kustomize-controller log): the answer names the field and the object; a Kustomization that applied: no problem', async () => {
    const ns = 'shop';
    const flux = (failed: boolean): ApiWorld =>
      world({
        ns,
        app: 'checkout',
        image: 'ghcr.io/acme/checkout:2.3.4',
        more: [
          namespaceObj('flux-system'),
          systemPod('kustomize-controller-28qr4wcccj-cwqn7', 'flux-system', {
            kind: 'ReplicaSet',
            name: 'kustomize-controller-28qr4wcccj',
          }),
        ],
        events: failed
          ? [
              kubeEvent(
                'flux-system',
                { kind: 'Kustomization', name: 'apps' },
                'Warning',
                'ReconciliationFailed',
                FLUX_FAILED,
                80,
                10,
                8,
                'kustomize-controller',
              ),
            ]
          : [],
        logs: {
          'kustomize-controller-28qr4wcccj-cwqn7': failed
            ? `{"level":"error","ts":"${at(10)}","msg":"Reconciliation failed after 1.71s, next try in 10m0s","controller":"kustomization","name":"apps","revision":"main@sha1:c71d5e0","error":${JSON.stringify(FLUX_FAILED)}}`
            : `{"level":"info","ts":"${at(10)}","msg":"Reconciliation finished in 5.52s, next run in 10m0s","controller":"kustomization","name":"apps","revision":"main@sha1:c71d5e0"}`,
        },
      });
    const ask =
      'we merged checkout 2.4.0 to main over an hour ago but prod still runs 2.3.4. why did it not roll out?';

    const bad = answerOf((await investigateAt(apiTools(flux(true)), ask, NOW, ns)).result);
    expect(bad).toContain('immutable');
    expect(bad).toContain('spec.selector');
    expect(bad).toContain('Deployment.apps "checkout"');
    expect(bad).not.toMatch(/No problem found/);

    const fine = answerOf((await investigateAt(apiTools(flux(false)), ask, NOW, ns)).result);
    expect(fine).toMatch(/No problem found/);
  });

  it('an Argo CD sync that failed on an immutable ConfigMap an hour ago (the application controller log only): still the cause; a later successful sync of it: over', async () => {
    const ns = 'pricing';
    const failed = (min: number) =>
      `${at(min)} time="${at(min)}" level=info msg="Adding resource result, status: 'SyncFailed', phase: 'Failed', message: 'ConfigMap "pricing-api-config" is invalid: data: Forbidden: field is immutable when \`immutable\` is set'" application=pricing-api kind=ConfigMap name=pricing-api-config namespace=pricing phase=Sync`;
    const argo = (later: string[]): ApiWorld =>
      world({
        ns,
        app: 'pricing-api',
        image: 'ghcr.io/acme/pricing-api:4.2.0',
        more: [
          namespaceObj('argocd'),
          systemPod('argocd-application-controller-0', 'argocd', {
            kind: 'StatefulSet',
            name: 'argocd-application-controller',
          }),
        ],
        logs: {
          'argocd-application-controller-0': [failed(66), failed(64), failed(61), ...later].join(
            '\n',
          ),
        },
      });
    const ask =
      'We merged the change raising pricing-api rate limit from 100 to 500 rps an hour ago, but partners still get 429 at 100 rps. why is the new limit not active?';

    const bad = answerOf((await investigateAt(apiTools(argo([])), ask, NOW, ns)).result);
    expect(bad).toContain('immutable');
    expect(bad).toContain('pricing-api-config');

    const synced = answerOf(
      (
        await investigateAt(
          apiTools(
            argo([
              `${at(5)} time="${at(5)}" level=info msg="Sync operation to 41d7e0a succeeded" application=argocd/pricing-api`,
            ]),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(synced).toMatch(/No problem found/);
  });

  it('Argo CD syncs refused with "etcdserver: mvcc: database space exceeded": etcd is out of space (its log read); a sync that fails on something else: not etcd', async () => {
    const ns = 'catalog';
    const etcd = (line: string): ApiWorld =>
      world({
        ns,
        app: 'catalog-api',
        image: 'ghcr.io/acme/catalog-api:3.1.0',
        more: [
          namespaceObj('argocd'),
          namespaceObj('kube-system'),
          systemPod('argocd-application-controller-0', 'argocd', {
            kind: 'StatefulSet',
            name: 'argocd-application-controller',
          }),
          systemPod('etcd-cp-01', 'kube-system', { kind: 'Node', name: 'cp-01' }),
        ],
        logs: {
          'argocd-application-controller-0': `${at(20)} time="${at(20)}" level=error msg="${line}" application=argocd/catalog-api`,
          'etcd-cp-01': `{"level":"warn","ts":"${at(25)}","caller":"etcdserver/apply.go:1057","msg":"alarm raised","alarm":"NOSPACE","from":"8e9e05c52164694d"}`,
        },
      });
    const ask =
      'argo cd cannot sync catalog-api since ~09:45 (sync keeps failing) and nothing new shows up in the cluster. what is going on?';

    const full = await investigateAt(
      apiTools(
        etcd('Failed to persist operation state: etcdserver: mvcc: database space exceeded'),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(full.result);
    expect(a).toMatch(/etcd is out of space/i);
    expect(a).toContain('database space exceeded');
    expect(full.gateway.calls.some((c) => JSON.stringify(c).includes('etcd-cp-01'))).toBe(true);

    const other = answerOf(
      (
        await investigateAt(
          apiTools(etcd('Failed to load target state: rpc error: code = Unavailable')),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(other).not.toMatch(/etcd is out of space/i);
  });

  it('a deploy Job named for the service, in a CI namespace, failed: the ingress-nginx webhook denied its Ingress (host and path already defined in another Ingress); the same Job that succeeded: no problem', async () => {
    const ns = 'storefront';
    const job = (failed: boolean): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'deploy-campaigns-web-88213',
        namespace: 'ci',
        creationTimestamp: ago(100),
      },
      spec: { backoffLimit: 0 },
      status: failed
        ? {
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastTransitionTime: ago(99),
              },
            ],
          }
        : {
            succeeded: 1,
            completionTime: ago(99),
            conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: ago(99) }],
          },
    });
    const ci = (failed: boolean): ApiWorld =>
      world({
        ns,
        app: 'campaigns-web',
        image: 'ghcr.io/acme/campaigns-web:1.0.0',
        more: [
          namespaceObj('ci'),
          job(failed),
          podObj({
            name: 'deploy-campaigns-web-88213-kkvlr',
            ns: 'ci',
            labels: { 'job-name': 'deploy-campaigns-web-88213' },
            owner: { kind: 'Job', name: 'deploy-campaigns-web-88213' },
            phase: failed ? 'Failed' : 'Succeeded',
            boxes: [
              {
                name: 'kubectl',
                image: 'bitnami/kubectl:1.32.3',
                state: {
                  terminated: {
                    exitCode: failed ? 1 : 0,
                    reason: failed ? 'Error' : 'Completed',
                    finishedAt: ago(99),
                  },
                },
              },
            ],
          }),
        ],
        logs: {
          'deploy-campaigns-web-88213-kkvlr': [
            `${at(100)} deployment.apps/campaigns-web created`,
            failed
              ? `${at(99)} Error from server (BadRequest): error when creating "/src/k8s/ingress.yaml": admission webhook "validate.nginx.ingress.kubernetes.io" denied the request: host "shop.example.com" and path "/summer" is already defined in ingress marketing/summer-2025-landing`
              : `${at(99)} ingress.networking.k8s.io/campaigns-web created`,
          ].join('\n'),
        },
      });
    const ask =
      'shop.example.com/summer shows our 404 page. campaigns-web went out at 09:00 and its pods are running fine, so what is going on?';

    const bad = answerOf((await investigateAt(apiTools(ci(true)), ask, NOW, ns)).result);
    expect(bad).toContain('already defined in Ingress marketing/summer-2025-landing');
    expect(bad).toContain('validate.nginx.ingress.kubernetes.io');

    const fine = answerOf((await investigateAt(apiTools(ci(false)), ask, NOW, ns)).result);
    expect(fine).toMatch(/No problem found/);
  });
});
