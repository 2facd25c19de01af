/**
 * The engine rules of round20's rollouts and scaling (cause-catalog.data.ts, its "rollouts and
 * scaling (round20, r20roll)" block; the rules that compare facts in diagnose-rollouts.ts, their
 * variables in finding-vars-r20roll.ts), one test per rule, each with a near miss where it must
 * not fire: a deploy that resets the replicas an autoscaler chose, load that stays on the oldest
 * pods after a scale-up, a readiness gate of the AWS Load Balancer Controller held False by a
 * failing target health check, the health checker's request answered 404, a recursive fsGroup
 * ownership change of a large volume, and a helm upgrade stopped by an API version its stored
 * release manifest uses.
 */
import { compile, findFindings } from './diagnose';
import { CAUSE_CATALOG } from './cause-catalog.data';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  hpaObj,
  ids,
  investigateAt,
  jsonOutputs,
  kubeEvent,
  metaOf,
  namespaceObj,
  podObj,
  serviceObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

/** a Deployment whose last `kubectl apply` wrote `applied` (undefined: no replicas field) */
function appliedDeployment(name: string, ns: string, replicas: number, applied?: number): Obj {
  const d = deploymentObj(name, ns, [`registry.example.com/${name}:2.4.1`], replicas, replicas);
  const spec = {
    selector: { matchLabels: { app: name } },
    ...(applied ? { replicas: applied } : {}),
  };
  const meta = d['metadata'] as Obj;
  return {
    ...d,
    metadata: {
      ...meta,
      annotations: {
        'deployment.kubernetes.io/revision': '31',
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name, namespace: ns },
          spec,
        }),
      },
    },
  };
}

const scaling = (ns: string, name: string, message: string, min: number) =>
  kubeEvent(
    ns,
    { kind: 'Deployment', name },
    'Normal',
    'ScalingReplicaSet',
    message,
    min,
    min,
    1,
    'deployment-controller',
  );

const rescale = (ns: string, name: string, message: string, min: number) =>
  kubeEvent(
    ns,
    { kind: 'HorizontalPodAutoscaler', name },
    'Normal',
    'SuccessfulRescale',
    message,
    min,
    min,
    1,
    'horizontal-pod-autoscaler',
  );

describe('round20 rules: rollouts and scaling', () => {
  it('a deploy that resets the replicas of an autoscaled Deployment: the answer quotes the cut and says spec.replicas; the autoscaler scaling down itself: not this rule', async () => {
    const ns = 'payments';
    const world = (hpaAskedIt: boolean): ApiWorld => {
      const pods = [0, 1, 2, 3, 4, 5].map((i) =>
        podObj({
          name: `checkout-7c9d8b6f54-q${i}x2z`,
          ns,
          labels: { app: 'checkout', 'pod-template-hash': '7c9d8b6f54' },
          owner: { kind: 'ReplicaSet', name: 'checkout-7c9d8b6f54' },
          created: i === 0 ? 60 * 24 : 12,
          boxes: [{ name: 'checkout', image: 'registry.example.com/checkout:2.4.1' }],
        }),
      );
      return {
        objects: [
          namespaceObj(ns),
          appliedDeployment('checkout', ns, 6, hpaAskedIt ? 6 : undefined),
          hpaObj('checkout', ns, 'checkout', { min: 6, max: 40, cpu: 65, current: 6 }),
          ...pods,
        ],
        events: [
          scaling(ns, 'checkout', 'Scaled down replica set checkout-7c9d8b6f54 from 24 to 1', 14),
          hpaAskedIt
            ? rescale(ns, 'checkout', 'New size: 1; reason: All metrics below target', 14)
            : rescale(
                ns,
                'checkout',
                'New size: 6; reason: Current number of replicas below Spec.MinReplicas',
                14,
              ),
          scaling(ns, 'checkout', 'Scaled up replica set checkout-7c9d8b6f54 from 1 to 6', 13),
        ],
      };
    };
    const ask = 'checkout: 503s and high latency since a few minutes, is the HPA broken?';
    const reset = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(reset).toContain('from 24 to 1');
    expect(reset).toContain('spec.replicas');
    expect(reset).toContain('has no replicas field');
    const own = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(own).not.toContain('spec.replicas');
  });

  it('load pinned to the oldest pods after a scale-up: the answer names long-lived HTTP/2 connections and the busy pods; the newest pods busy: not this rule', () => {
    const ns = 'pricing';
    const run = (oldAreHot: boolean) => {
      const pod = (i: number, created: number) =>
        podObj({
          name: `rates-7f8d9c6b5-p${i}k2m`,
          ns,
          labels: { app: 'rates', 'pod-template-hash': '7f8d9c6b5' },
          owner: { kind: 'ReplicaSet', name: 'rates-7f8d9c6b5' },
          created,
          boxes: [
            {
              name: 'rates',
              image: 'registry.example.com/rates:3.7.1',
              resources: { limits: { cpu: '2' }, requests: { cpu: '1' } },
            },
          ],
        });
      const pods = [0, 1, 2, 3, 4, 5].map((i) => pod(i, i < 3 ? 60 * 24 * 2 : 25));
      const { model } = findingsOf(
        jsonOutputs(
          {
            objects: [
              namespaceObj(ns),
              deploymentObj('rates', ns, ['registry.example.com/rates:3.7.1'], 6, 6),
              hpaObj('rates', ns, 'rates', { min: 3, max: 6, cpu: 60, current: 6 }),
              serviceObj('rates', ns, { app: 'rates' }, 9090, { portName: 'grpc' }),
              ...pods,
            ],
          },
          ns,
        ),
      );
      for (const [i] of pods.entries()) {
        const hot = oldAreHot ? i < 3 : i >= 3;
        model.metrics.push({
          kind: 'pod',
          name: `rates-7f8d9c6b5-p${i}k2m`,
          namespace: ns,
          cpu: hot ? '1990m' : '5m',
          source: 't',
        });
      }
      return findFindings(model, compile(CAUSE_CATALOG), NOW);
    };
    const pinned = run(true).find((f) => f.entry.id === 'load_pinned_to_old_pods');
    expect(pinned?.fact).toContain('rates-7f8d9c6b5-p0k2m');
    expect(pinned?.entry.cause).toContain('HTTP/2');
    expect(ids(run(false))).not.toContain('load_pinned_to_old_pods');
  });

  it("an AWS Load Balancer Controller readiness gate held False: the answer names the Ingress's health check path and the 404; a gate that is True: not this rule", async () => {
    const ns = 'storefront';
    const gate = 'target-health.elbv2.k8s.aws/k8s-storefro-storefro-5e1c7a9b2d';
    const world = (gateOk: boolean): ApiWorld => {
      const pod = (i: number) =>
        podObj({
          name: `storefront-bchndk846f-q${i}bsx`,
          ns,
          labels: { app: 'storefront', 'pod-template-hash': 'bchndk846f' },
          owner: { kind: 'ReplicaSet', name: 'storefront-bchndk846f' },
          created: 38,
          boxes: [{ name: 'storefront', image: 'registry.example.com/storefront:4.0.0' }],
          conditions: [
            gateOk
              ? { type: gate, status: 'True' }
              : {
                  type: gate,
                  status: 'False',
                  reason: 'Target.ResponseCodeMismatch',
                  message: 'Health checks failed with these codes: [404]',
                },
            { type: 'ContainersReady', status: 'True' },
            gateOk
              ? { type: 'Ready', status: 'True' }
              : { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady' },
          ],
        });
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj(
            'storefront',
            ns,
            ['registry.example.com/storefront:4.0.0'],
            2,
            gateOk ? 2 : 0,
          ),
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'Ingress',
            metadata: {
              name: 'storefront',
              namespace: ns,
              annotations: {
                'alb.ingress.kubernetes.io/target-type': 'ip',
                'alb.ingress.kubernetes.io/healthcheck-path': '/ping',
              },
            },
            spec: {
              ingressClassName: 'alb',
              rules: [
                {
                  http: {
                    paths: [
                      {
                        path: '/',
                        pathType: 'Prefix',
                        backend: { service: { name: 'storefront', port: { number: 80 } } },
                      },
                    ],
                  },
                },
              ],
            },
          },
          pod(0),
          pod(1),
        ],
      };
    };
    const ask = 'the storefront rollout is stuck, the new pods never turn ready. why?';
    const held = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(held).toContain('/ping');
    expect(held).toContain('404');
    expect(held).toContain('readiness gate');
    const fine = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(fine).not.toContain('readiness gate');
  });

  it("the load balancer's health checker answered 404 in the app's log: the path and code; answered 200: not this rule", () => {
    const ns = 'storefront';
    const pod = 'storefront-bchndk846f-cp8cq';
    // a log of JSON records (one record alone would read as a JSON answer, not a log)
    const line = (code: number) =>
      `${ago(4)} storefront 4.0.0 listening on http://0.0.0.0:3000\n{"level":30,"time":"${ago(3)}","req":{"method":"GET","url":"/ping","userAgent":"ELB-HealthChecker/2.0"},"res":{"statusCode":${code}},"msg":"request completed"}`;
    const of = (code: number) =>
      findingsOf([{ output: line(code), ctx: { pod, namespace: ns, verb: 'logs' } }]).findings;
    const hit = of(404).find((f) => f.entry.id === 'lb_health_check_path_failing');
    expect(hit?.groups['hc_path2']).toBe('/ping');
    expect(hit?.groups['hc_code2']).toBe('404');
    const common = findingsOf([
      {
        output: `10.0.1.7 - - [10/Mar/2026:11:58:02 +0000] "GET /healthcheck HTTP/1.1" 503 19 "-" "ELB-HealthChecker/2.0"`,
        ctx: { pod, namespace: ns, verb: 'logs' },
      },
    ]).findings.find((f) => f.entry.id === 'lb_health_check_path_failing');
    expect(common?.groups['hc_path']).toBe('/healthcheck');
    expect(ids(of(200))).not.toContain('lb_health_check_path_failing');
  });

  it('the kubelet still changing the ownership of a volume to the fsGroup: fsGroup and OnRootMismatch; a FailedMount alone: not this rule', () => {
    const ns = 'dev-tools';
    const pod = podObj({
      name: 'gitea-vvdkh4dcdw-qt5tj',
      ns,
      labels: { app: 'gitea' },
      owner: { kind: 'ReplicaSet', name: 'gitea-vvdkh4dcdw' },
      phase: 'Pending',
      scheduled: true,
      created: 30,
      boxes: [
        { name: 'gitea', image: 'gitea:1.24.5', state: { waiting: { reason: 'PodInitializing' } } },
      ],
    });
    const slow = warningEvent(
      ns,
      { kind: 'Pod', name: 'gitea-vvdkh4dcdw-qt5tj' },
      'VolumePermissionChangeInProgress',
      'Setting volume ownership for 63700dba/volumes/kubernetes.io~csi/pvc-9185b697-9bad/mount, processed 896345 files.',
      25,
      2,
      12,
    );
    const mount = warningEvent(
      ns,
      { kind: 'Pod', name: 'gitea-vvdkh4dcdw-qt5tj' },
      'FailedMount',
      'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded',
      3,
      3,
      1,
    );
    const of = (events: Obj[]) => findingsOf(jsonOutputs({ objects: [pod], events }, ns)).findings;
    const hit = of([slow, mount]).find((f) => f.entry.id === 'volume_ownership_change_slow');
    expect(hit?.groups['files']).toBe('896345');
    expect(hit?.entry.cause).toContain('fsGroup');
    expect(hit?.entry.fix).toContain('OnRootMismatch');
    expect(ids(of([mount]))).not.toContain('volume_ownership_change_slow');
  });

  it('a helm upgrade stopped by an API version of its current release manifest: the kind and version, removed in 1.25; another helm failure: not this rule', () => {
    const ns = 'platform-deploy';
    const pod = 'deploy-zookeeper-p4417-v4bwg';
    const log = (err: string) =>
      [
        '+ helm upgrade --install zookeeper /work/charts/zookeeper -n data --atomic --wait --timeout 10m',
        `Error: UPGRADE FAILED: ${err}`,
      ].join('\n');
    const of = (err: string) =>
      findingsOf([{ output: log(err), ctx: { pod, namespace: ns, verb: 'logs' } }]).findings;
    const hit = of(
      'unable to build kubernetes objects from current release manifest: resource mapping not found for name: "zookeeper" namespace: "data" from "": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"',
    ).find((f) => f.entry.id === 'helm_release_manifest_removed_api');
    expect(hit?.groups['kind']).toBe('PodDisruptionBudget');
    expect(hit?.groups['apiver']).toBe('policy/v1beta1');
    expect(
      ids(
        of(
          'unable to build kubernetes objects from new release manifest: error validating "": error validating data: unknown field "maxUnavailabel"',
        ),
      ),
    ).not.toContain('helm_release_manifest_removed_api');
  });
  it('pods nominated to Karpenter NodeClaims whose nodes never register: the NodeClass role and aws-auth; a NodeClaim still booting: not this rule', async () => {
    const ns = 'ingest';
    const world = (launchedMin: number, earlier: boolean): ApiWorld => {
      const claim = (name: string, registered: boolean, min: number): Obj => ({
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodeClaim',
        metadata: { name, creationTimestamp: ago(min) },
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        },
        status: {
          conditions: [
            { type: 'Launched', status: 'True', reason: 'Launched', lastTransitionTime: ago(min) },
            registered
              ? {
                  type: 'Registered',
                  status: 'True',
                  reason: 'Registered',
                  lastTransitionTime: ago(min),
                }
              : {
                  type: 'Registered',
                  status: 'Unknown',
                  reason: 'NodeNotFound',
                  message: 'Node not registered with cluster',
                  lastTransitionTime: ago(min),
                },
          ],
        },
      });
      const pending = [0, 1].map((i) =>
        podObj({
          name: `ingest-5kg5f5b6wz-p${i}d24`,
          ns,
          labels: { app: 'ingest', 'pod-template-hash': '5kg5f5b6wz' },
          owner: { kind: 'ReplicaSet', name: 'ingest-5kg5f5b6wz' },
          phase: 'Pending',
          created: 36,
          boxes: [{ name: 'ingest', image: 'registry.example.com/ingest:1.4.0' }],
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: '0/3 nodes are available: 3 Insufficient cpu.',
            },
          ],
        }),
      );
      const nominated = (pod: string, claimName: string, min: number) =>
        kubeEvent(
          ns,
          { kind: 'Pod', name: pod },
          'Normal',
          'Nominated',
          `Pod should schedule on: nodeclaim/${claimName}`,
          min,
          min,
          1,
          'karpenter',
        );
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('ingest', ns, ['registry.example.com/ingest:1.4.0'], 2, 0),
          ...pending,
          claim('default-tq7vz', true, 60 * 24 * 10),
          claim('default-r5k8j', false, launchedMin),
          {
            apiVersion: 'karpenter.k8s.aws/v1',
            kind: 'EC2NodeClass',
            metadata: { name: 'default' },
            spec: { role: 'KarpenterNodeRole-prod-v2' },
          },
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'aws-auth', namespace: 'kube-system' },
            data: {
              mapRoles:
                '- groups:\n  - system:bootstrappers\n  - system:nodes\n  rolearn: arn:aws:iam::111122223333:role/KarpenterNodeRole-prod\n  username: system:node:{{EC2PrivateDNSName}}\n',
            },
          },
        ],
        events: [
          ...(earlier
            ? pending.map((p) => nominated(String(metaOf(p)['name']), 'default-8kq2x', 35))
            : []),
          ...pending.map((p) => nominated(String(metaOf(p)['name']), 'default-r5k8j', launchedMin)),
          warningEvent(
            ns,
            { kind: 'Pod', name: 'ingest-5kg5f5b6wz-p0d24' },
            'FailedScheduling',
            '0/3 nodes are available: 3 Insufficient cpu.',
            36,
            1,
            20,
            'default-scheduler',
          ),
        ],
      };
    };
    const ask = 'ingest scaled up but its new pods are still Pending. We use Karpenter. Why?';
    const stuck = answerOf((await investigateAt(apiTools(world(12, true)), ask, NOW, ns)).result);
    expect(stuck).toContain('never register');
    expect(stuck).toContain('KarpenterNodeRole-prod-v2');
    expect(stuck).toContain('aws-auth');
    const booting = answerOf((await investigateAt(apiTools(world(3, false)), ask, NOW, ns)).result);
    expect(booting).not.toContain('never register');
  });
  it('pods of the workload the context names, pending with a why: an incident, not a list of pending pods; a message about pods of no named workload: still the list', () => {
    const ctx = { namespace: 'ingest', service: 'event-ingest' };
    const incident = scopeIncident(
      'event-ingest scaled up at 10:05 but half of its pods are still Pending. Why are no new nodes coming up?',
      ctx,
      NOW,
    );
    expect(incident.question?.type).not.toBe('pending');
    const list = scopeIncident(
      'half of the pods in ingest are still Pending. Why are no new nodes coming up?',
      ctx,
      NOW,
    );
    expect(list.question?.type).toBe('pending');
  });
  it('"the deploy job failed" while the namespace in scope is the release\'s: the failed Job of that stem in its own namespace is read (its helm log); a Job that completed: not read', async () => {
    const world = (failed: boolean): ApiWorld => {
      const job = 'deploy-zookeeper-p4417';
      const pod = `${job}-v4bwg`;
      return {
        objects: [
          namespaceObj('data'),
          namespaceObj('platform-deploy'),
          podObj({
            name: 'zookeeper-0',
            ns: 'data',
            labels: { app: 'zookeeper' },
            owner: { kind: 'StatefulSet', name: 'zookeeper' },
            boxes: [{ name: 'zookeeper', image: 'bitnami/zookeeper:3.9.3' }],
          }),
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: { name: job, namespace: 'platform-deploy', creationTimestamp: ago(30) },
            spec: { backoffLimit: 1 },
            status: failed
              ? {
                  failed: 2,
                  conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }],
                }
              : { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] },
          },
          podObj({
            name: pod,
            ns: 'platform-deploy',
            labels: { 'job-name': job },
            owner: { kind: 'Job', name: job },
            phase: failed ? 'Failed' : 'Succeeded',
            created: 30,
            boxes: [
              {
                name: 'helm',
                image: 'alpine/helm:3.17.3',
                state: {
                  terminated: { reason: failed ? 'Error' : 'Completed', exitCode: failed ? 1 : 0 },
                },
              },
            ],
          }),
        ],
        logs: {
          [pod]: failed
            ? '+ helm upgrade --install zookeeper /work/charts/zookeeper -n data --atomic\nError: UPGRADE FAILED: unable to build kubernetes objects from current release manifest: resource mapping not found for name: "zookeeper" namespace: "data" from "": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"\nensure CRDs are installed first'
            : '+ helm upgrade --install zookeeper /work/charts/zookeeper -n data --atomic\nRelease "zookeeper" has been upgraded. Happy Helming!',
        },
      };
    };
    const ask = 'the zookeeper change never reached the cluster, the deploy job failed twice. why?';
    const bad = answerOf((await investigateAt(apiTools(world(true)), ask, NOW)).result);
    expect(bad).toContain('policy/v1beta1');
    expect(bad).toContain('current release');
    const ok = answerOf((await investigateAt(apiTools(world(false)), ask, NOW)).result);
    expect(ok).not.toContain('policy/v1beta1');
  });
});
