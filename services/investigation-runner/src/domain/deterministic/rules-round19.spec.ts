/**
 * The engine rules of 3c09750 (e11fd5d), one describe per rule, each with a near-miss world where
 * it must not fire, on real-shaped API objects and outputs: a policy engine's admission denial
 * (Kyverno, long; Gatekeeper), JVM GC pauses that a liveness probe turns into restarts, the run a
 * Forbid CronJob waits for, Redis NOREPLICAS under min-replicas-to-write with the member that is
 * down, MySQL read-only writes with a host setting pinned to one member, and a crashing canary
 * whose stable twin runs the same image with other settings.
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
  stamped,
  statefulSetObj,
  table,
  warningEvent,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;
type Calls = { tool: string; params: Obj }[];

const NODE = 'ip-10-44-12-81.eu-central-1.compute.internal';
/** minutes in an hour */
const H = 60;

/** a pod of a Deployment's ReplicaSet */
const rsPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: Partial<Parameters<typeof podObj>[0]> = {},
): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    node: NODE,
    created: 5 * H,
    boxes,
    ...more,
  });

/** a ReplicaSet of a Deployment */
const replicaSetObj = (app: string, hash: string, ns: string, image: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: `${app}-${hash}`,
    namespace: ns,
    labels: { app, 'pod-template-hash': hash },
    creationTimestamp: ago(50),
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, controller: true }],
  },
  spec: {
    replicas,
    selector: { matchLabels: { app, 'pod-template-hash': hash } },
    template: { metadata: { labels: { app } }, spec: { containers: [{ name: app, image }] } },
  },
  status: { replicas: 0, readyReplicas: 0, availableReplicas: 0 },
});

const configMapObj = (name: string, ns: string, data: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
  data,
});

/** the pod with its first container loading these ConfigMaps with envFrom */
const loading = (pod: Obj, ...maps: string[]): Obj => {
  const spec = pod['spec'] as { containers: Obj[] };
  spec.containers[0]!['envFrom'] = maps.map((name) => ({ configMapRef: { name } }));
  return pod;
};

/** a `kubectl get configmap` table: names only, what they hold is read by name */
const configMapTable = (names: string[]) =>
  table(
    ['NAME', 'DATA', 'AGE'],
    [...names, 'kube-root-ca.crt'].map((n) => [n, '1', '30d']),
  );

const readByName = (calls: Calls, name: string) =>
  calls.some((c) => c.tool === 'k8s:resources_get' && c.params['name'] === name);

/** a container in CrashLoopBackOff after its last run exited 2, 2 min ago */
const crashing = (name: string, image: string, restarts = 7): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 2m40s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 2, startedAt: ago(3), finishedAt: ago(2) },
  },
});

describe('rules of 3c09750', () => {
  // ---------------------------------------------------------------- 1. a policy engine's denial
  describe('1. an admission webhook denial from a policy engine', () => {
    const ns = 'remittance';
    const app = 'payout-router';
    const hash = '5d8b7c6f94';
    const image = 'registry.example.net/remittance/payout-router:4.11.0';
    const world = (webhook: string, denial: string, condition = false): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 2, 0, [], {
          conditions: condition
            ? [
                {
                  type: 'ReplicaFailure',
                  status: 'True',
                  reason: 'FailedCreate',
                  message: `admission webhook "${webhook}" denied the request: ${denial}`,
                },
              ]
            : [],
        }),
        replicaSetObj(app, hash, ns, image, 2),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'ReplicaSet', name: `${app}-${hash}` },
          'FailedCreate',
          `Error creating: admission webhook "${webhook}" denied the request: ${denial}`,
          48,
          2,
          17,
          'replicaset-controller',
        ),
      ],
    });
    const ask = 'payout-router in remittance has no pods since the 11:10 deploy';
    const kyverno = [
      '',
      '',
      `resource Pod/${ns}/ was blocked due to the following policies `,
      '',
      'require-resource-limits:',
      "  check-container-limits: 'validation error: Every container must set resources.limits.cpu and resources.limits.memory so the node can budget it. rule check-container-limits failed at path /spec/containers/0/resources/limits/'",
    ].join('\n');

    const kyvernoSays =
      'Every container must set resources.limits.cpu and resources.limits.memory so the node can budget it';

    it('Kyverno, its denial long and on several lines as the API returns it: the answer names the policy require-resource-limits and quotes what it says is wrong', async () => {
      const r = await investigateAt(
        apiTools(world('validate.kyverno.svc-fail', kyverno)),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain(
        'The admission webhook validate.kyverno.svc-fail rejects what payout-router creates',
      );
      // the quote of the denial stops at its first line break, so what the policy says follows it
      // in the cause, and again in the fix
      expect(a).toContain(`policy require-resource-limits says "${kyvernoSays}`);
      expect(a).toContain(`require-resource-limits: ${kyvernoSays}`);
    });

    it('Kyverno, the same long denial on one line (and in the ReplicaFailure condition): past the quote\'s cut, "policy require-resource-limits says" what is wrong', async () => {
      const r = await investigateAt(
        apiTools(world('validate.kyverno.svc-fail', kyverno.replace(/\n+/g, ' '), true)),
        ask,
        NOW,
        ns,
      );
      // what it says is quoted past the point where the quote of the whole denial is cut
      expect(r.result.root_cause.description).toContain(
        '…"): policy require-resource-limits says "Every container must set resources.limits.cpu and resources.limits.memory',
      );
    });

    it('Gatekeeper "[allowed-registries] ...": the constraint named as the policy, its message quoted', async () => {
      const said =
        'container <payout-router> has an invalid image repo <docker.io/acme/payout-router:4.11.0>, allowed repos are ["registry.example.net/"]';
      const r = await investigateAt(
        apiTools(world('validation.gatekeeper.sh', `[allowed-registries] ${said}`)),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain(
        'policy allowed-registries says "container <payout-router> has an invalid image repo',
      );
      expect(a).toContain(said);
    });

    it('near miss: a webhook that is no policy engine (Vault\'s injector: "error validating agent configuration"): the denial is quoted, no policy is named (its message names none)', async () => {
      const r = await investigateAt(
        apiTools(
          world(
            'vault.hashicorp.com',
            'error validating agent configuration: no Vault role found for payout-router',
          ),
        ),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain(
        'The admission webhook vault.hashicorp.com rejects what payout-router creates',
      );
      expect(a).toContain('no Vault role found');
      expect(a).not.toMatch(/\(policy |policy \S+ says|validation error/);
    });
  });

  // ---------------------------------------------------------------- 2. GC pauses and liveness
  describe('2. long JVM GC pauses in pods whose liveness probe fails', () => {
    const ns = 'search';
    const app = 'doc-indexer';
    const hash = '7b9d4c6f58';
    const image = 'registry.example.net/search/doc-indexer:9.4.2';
    const pods = ['h6m2x', 'p3r8k'].map((s) => `${app}-${hash}-${s}`);
    /** a pod restarted `restarts` times, its last run ended 6 min ago (143: SIGTERM, then SIGKILL) */
    const indexerPod = (suffix: string, restarts: number): Obj => {
      const pod = rsPod(app, hash, suffix, ns, [
        {
          name: app,
          image,
          restarts,
          resources: { limits: { memory: '4Gi' }, requests: { cpu: '1', memory: '4Gi' } },
          lastState: {
            terminated: { reason: 'Error', exitCode: 143, startedAt: ago(41), finishedAt: ago(6) },
          },
        },
      ]);
      const c = (pod['spec'] as { containers: Obj[] }).containers[0]!;
      c['livenessProbe'] = {
        httpGet: { path: '/actuator/health/liveness', port: 8080, scheme: 'HTTP' },
        initialDelaySeconds: 60,
        timeoutSeconds: 2,
        periodSeconds: 10,
        failureThreshold: 3,
      };
      c['readinessProbe'] = {
        httpGet: { path: '/actuator/health/readiness', port: 8080, scheme: 'HTTP' },
        timeoutSeconds: 2,
        periodSeconds: 5,
        failureThreshold: 3,
      };
      return pod;
    };
    const gc = (m: number, id: number, ms: string): [number, string] => [
      m,
      `[${ago(m).replace('Z', '+0000')}][info][gc] GC(${id}) Pause Full (G1 Compaction Pause) 3971M->3902M(4096M) ${ms}ms`,
    ];
    const world = (probe: 'Liveness' | 'Readiness'): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 2, 2),
        indexerPod('h6m2x', 5),
        indexerPod('p3r8k', 4),
      ],
      events: pods.flatMap((pod, i) => [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'Unhealthy',
          `${probe} probe failed: Get "http://10.52.3.${18 + i}:8080/actuator/health/${probe.toLowerCase()}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
          50,
          3,
          23,
        ),
        ...(probe === 'Liveness'
          ? [
              kubeEvent(
                ns,
                { kind: 'Pod', name: pod },
                'Normal',
                'Killing',
                `Container ${app} failed liveness probe, will be restarted`,
                47,
                6,
                4,
              ),
            ]
          : []),
      ]),
      logs: Object.fromEntries(
        pods.map((pod, i) => [
          pod,
          stamped([
            [
              30,
              `[${ago(30).replace('Z', '+0000')}][info][gc] GC(${210 + i}) Pause Young (Normal) (G1 Evacuation Pause) 3420M->3301M(4096M) 61.204ms`,
            ],
            gc(22, 231 + i, '2276.108'),
            [
              21,
              '2026-03-10 11:39:02.418  INFO 1 --- [index-worker-2] c.e.s.DocIndexer : indexed segment 7731 (1200 docs)',
            ],
            gc(12, 248 + i, '2904.551'),
            gc(4, 262 + i, '3118.930'),
          ]),
        ]),
      ),
    });
    const ask = 'doc-indexer in search keeps restarting every few minutes';

    it('"Pause Full (G1 Compaction Pause) ... 2276.108ms" in pods with "Liveness probe failed" events: the liveness probe, its timeoutSeconds 2s from the pod spec, fails during the pauses and the kubelet restarts the pods', async () => {
      const r = await investigateAt(apiTools(world('Liveness')), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('stops for seconds in garbage collection');
      expect(a).toContain('2276.108ms');
      expect(a).toContain(
        'Its liveness probe (timeoutSeconds 2s) fails during the pauses, so the kubelet restarts pods that were only collecting garbage ("Liveness probe failed:',
      );
    });

    it('near miss: the same pauses, only "Readiness probe failed" events (the pods leave the Service, the kubelet restarts nothing): the GC pauses, nothing about the liveness probe', async () => {
      const r = await investigateAt(apiTools(world('Readiness')), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('stops for seconds in garbage collection');
      expect(r.text).not.toMatch(/liveness probe|kubelet restarts/i);
    });
  });

  // ---------------------------------------------------------------- 3. a Forbid CronJob's active run
  describe('3. a CronJob with concurrencyPolicy Forbid skipping its runs', () => {
    const ns = 'warehouse';
    const cron = 'stock-reconcile';
    const image = 'registry.example.net/warehouse/stock-reconcile:2.7.0';
    const cronJobObj: Obj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: cron, namespace: ns, creationTimestamp: ago(60 * 24 * 120) },
      spec: {
        schedule: '*/15 * * * *',
        concurrencyPolicy: 'Forbid',
        jobTemplate: {
          spec: {
            backoffLimit: 2,
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'reconcile', image }] },
            },
          },
        },
      },
      status: {
        active: [{ kind: 'Job', name: `${cron}-29551980`, namespace: ns }],
        lastScheduleTime: ago(3 * H + 12),
        lastSuccessfulTime: ago(3 * H + 24),
      },
    };
    /** a Job of the CronJob started `started` minutes ago; done `done` minutes ago if given */
    const jobObj = (name: string, started: number, done?: number, deadline?: number): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: ns,
        labels: { 'batch.kubernetes.io/job-name': name, 'job-name': name },
        creationTimestamp: ago(started),
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'CronJob', name: cron, controller: true },
        ],
      },
      spec: {
        backoffLimit: 2,
        ...(deadline ? { activeDeadlineSeconds: deadline } : {}),
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'reconcile', image }] },
        },
      },
      status:
        done === undefined
          ? { startTime: ago(started), active: 1, ready: 1 }
          : {
              startTime: ago(started),
              completionTime: ago(done),
              succeeded: 1,
              conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: ago(done) }],
            },
    });
    const jobPod = (job: string, suffix: string, started: number, done?: number): Obj =>
      podObj({
        name: `${job}-${suffix}`,
        ns,
        labels: { 'batch.kubernetes.io/job-name': job, 'job-name': job },
        owner: { kind: 'Job', name: job },
        node: NODE,
        created: started,
        restartPolicy: 'Never',
        ...(done === undefined
          ? { boxes: [{ name: 'reconcile', image }] }
          : {
              phase: 'Succeeded' as const,
              boxes: [
                {
                  name: 'reconcile',
                  image,
                  ready: false,
                  started: false,
                  state: {
                    terminated: {
                      reason: 'Completed',
                      exitCode: 0,
                      startedAt: ago(started),
                      finishedAt: ago(done),
                    },
                  },
                },
              ],
            }),
      });
    const hung = `${cron}-29551980`;
    const hungPod = `${hung}-t7q4z`;
    const world = (o: { hungDone?: number; deadline?: number }): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        cronJobObj,
        jobObj(`${cron}-29551965`, 3 * H + 27, 3 * H + 24),
        jobPod(`${cron}-29551965`, 'm2c8v', 3 * H + 27, 3 * H + 24),
        jobObj(hung, 3 * H + 12, o.hungDone, o.deadline),
        jobPod(hung, 't7q4z', 3 * H + 12, o.hungDone),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'CronJob', name: cron },
          'Normal',
          'JobAlreadyActive',
          'Not starting job because prior execution is running and concurrency policy is Forbid',
          3 * H - 3,
          2,
          12,
          'cronjob-controller',
        ),
      ],
      logs: {
        [hungPod]: stamped([
          [3 * H + 12, 'INFO  reconcile run started: 14 warehouses, snapshot 2026-03-10T08:45'],
          [3 * H + 9, 'INFO  warehouse FRA-2: 18233 SKUs compared, 41 adjusted'],
          [
            3 * H + 8,
            'WARN  warehouse MUC-1: waiting for lock on inventory_snapshots (held by pid 30117)',
          ],
        ]),
      },
    });
    const ask = 'stock-reconcile in warehouse has not run since 08:45, what is going on?';

    const listedJobs = (calls: Calls) =>
      calls.some(
        (c) => c.tool === 'k8s:resources_list' && /^jobs?$/i.test(String(c.params['kind'])),
      );

    it('JobAlreadyActive: the Jobs are listed, and the answer names Job stock-reconcile-29551980, running since 08:48, its pod, its last log line, and that it has no activeDeadlineSeconds', async () => {
      const r = await investigateAt(apiTools(world({})), ask, NOW, ns);
      expect(listedJobs(r.gateway.calls)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain('concurrencyPolicy is Forbid');
      expect(a).toContain(
        `that run hangs: Job ${hung} has been running since 2026-03-10T08:48:00.000Z (pod ${hungPod}, last logged "WARN warehouse MUC-1: waiting for lock on inventory_snapshots`,
      );
      expect(a).toContain('with no activeDeadlineSeconds to end it');
    });

    it('near miss: the hung Job has activeDeadlineSeconds 7200 (it will be ended): the Job named, no "no activeDeadlineSeconds"', async () => {
      const r = await investigateAt(apiTools(world({ deadline: 7200 })), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`Job ${hung} has been running since`);
      expect(a).not.toContain('no activeDeadlineSeconds');
    });

    it('near miss: that run completed 40 min ago (every Job of the CronJob is Complete): the skipped runs, no Job named as running', async () => {
      const r = await investigateAt(apiTools(world({ hungDone: 40 })), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('concurrencyPolicy is Forbid');
      expect(a).not.toMatch(/has been running since|is still running|no activeDeadlineSeconds/);
    });
  });

  // ---------------------------------------------------------------- 4. Redis NOREPLICAS
  describe('4. Redis "NOREPLICAS Not enough good replicas to write."', () => {
    const ns = 'sessions';
    const app = 'session-api';
    const hash = '6f4c8d7b92';
    const image = 'registry.example.net/sessions/session-api:3.2.5';
    const redis = 'session-redis';
    const pod = `${app}-${hash}-w8n5d`;
    const unschedulable =
      '0/6 nodes are available: 2 node(s) had volume node affinity conflict, 4 Insufficient memory. preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 No preemption victims found for incoming pod.';
    const world = (o: { error: string; memberDown: boolean }): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        withEnv(rsPod(app, hash, 'w8n5d', ns, [{ name: app, image }]), {
          REDIS_ADDR: `${redis}-0.${redis}.${ns}.svc.cluster.local:6379`,
        }),
        ...statefulSetObj(redis, ns, 'docker.io/library/redis:7.2.5', 3, {
          ready: o.memberDown ? 2 : 3,
          container: 'redis',
          node: NODE,
          member: (i) =>
            i === 2 && o.memberDown
              ? {
                  phase: 'Pending',
                  scheduled: false,
                  created: 38,
                  conditions: [
                    {
                      type: 'PodScheduled',
                      status: 'False',
                      reason: 'Unschedulable',
                      message: unschedulable,
                    },
                  ],
                }
              : {},
        }),
        configMapObj(`${redis}-conf`, ns, {
          'redis.conf': [
            'bind 0.0.0.0',
            'port 6379',
            'appendonly yes',
            'min-replicas-to-write 2',
            'min-replicas-max-lag 10',
          ].join('\n'),
        }),
        configMapObj(`${app}-settings`, ns, { SESSION_TTL: '3600' }),
      ],
      tables: { configmap: configMapTable([`${redis}-conf`, `${app}-settings`]) },
      events: o.memberDown
        ? [
            warningEvent(
              ns,
              { kind: 'Pod', name: `${redis}-2` },
              'FailedScheduling',
              unschedulable,
              38,
              1,
              9,
              'default-scheduler',
            ),
          ]
        : [],
      logs: {
        [pod]: stamped(
          [26, 19, 14, 9, 5, 2].map((m, i) => [
            m,
            `level=error msg="session save failed" session=s_${48120 + i} err="${o.error}"`,
          ]),
        ),
      },
    });
    const ask = 'session-api in sessions: logins fail to save sessions since about 11:30';
    const noReplicas = 'NOREPLICAS Not enough good replicas to write.';

    const inspected = (calls: Calls, name: string) =>
      calls.some((c) => c.tool === 'k8s:pods_get' && c.params['name'] === name);

    it('NOREPLICAS with session-redis-2 Pending: Redis refuses writes for fewer replicas than min-replicas-to-write 2 (ConfigMap session-redis-conf, read by name), and names session-redis-2 with its FailedScheduling warning', async () => {
      const r = await investigateAt(
        apiTools(world({ error: noReplicas, memberDown: true })),
        ask,
        NOW,
        ns,
      );
      expect(readByName(r.gateway.calls, `${redis}-conf`)).toBe(true);
      expect(inspected(r.gateway.calls, `${redis}-2`)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain(
        "Redis refuses session-api's writes: fewer replicas are connected to its primary than its min-replicas-to-write requires (min-replicas-to-write 2 in ConfigMap session-redis-conf)",
      );
      expect(a).toContain(
        `reads still work: ${redis}-2 is Pending ("0/6 nodes are available: 2 node(s) had volume node affinity conflict`,
      );
    });

    it('near miss: NOREPLICAS with every Redis member running (the replicas lag): min-replicas-to-write, no member named as down', async () => {
      const r = await investigateAt(
        apiTools(world({ error: noReplicas, memberDown: false })),
        ask,
        NOW,
        ns,
      );
      const a = answerOf(r.result);
      expect(a).toContain('(min-replicas-to-write 2 in ConfigMap session-redis-conf)');
      expect(a).not.toMatch(/session-redis-\d is /);
    });

    it('near miss: "READONLY You can\'t write against a read only replica." with the same member down and redis.conf: a replica written to, no min-replicas-to-write claim', async () => {
      const r = await investigateAt(
        apiTools(
          world({
            error: "READONLY You can't write against a read only replica.",
            memberDown: true,
          }),
        ),
        ask,
        NOW,
        ns,
      );
      expect(answerOf(r.result)).toContain('writes to a Redis replica');
      expect(r.text).not.toMatch(/min-replicas-to-write|NOREPLICAS/);
    });
  });

  // ---------------------------------------------------------------- 5. MySQL read-only
  describe('5. MySQL "Error 1290 (HY000): ... --read-only option"', () => {
    const ns = 'fulfilment';
    const app = 'shipment-writer';
    const hash = '8c5f9b7d41';
    const image = 'registry.example.net/fulfilment/shipment-writer:6.0.3';
    const db = 'shipments-mysql';
    const pod = `${app}-${hash}-b4t9r`;
    const settings = `${app}-db`;
    const readOnly =
      'Error 1290 (HY000): The MySQL server is running with the --read-only option so it cannot execute this statement';
    const world = (host: string, error = readOnly): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [image], 1, 1),
        loading(rsPod(app, hash, 'b4t9r', ns, [{ name: app, image }]), settings),
        ...statefulSetObj(db, ns, 'docker.io/library/mysql:8.0.36', 3, {
          container: 'mysql',
          node: NODE,
        }),
        configMapObj(settings, ns, {
          DB_HOST: host,
          DB_PORT: '3306',
          DB_NAME: 'shipments',
          DB_POOL_SIZE: '20',
        }),
      ],
      logs: {
        [pod]: stamped(
          [24, 18, 13, 8, 4, 1].map((m, i) => [
            m,
            `{"level":"error","ts":"${ago(m)}","caller":"store/shipments.go:212","msg":"insert shipment failed","shipment":"SHP-${77410 + i}","error":"${error}"}`,
          ]),
        ),
      },
    });
    const ask = 'shipment-writer in fulfilment cannot save shipments since this morning';

    it('DB_HOST=shipments-mysql-0.shipments-mysql in the ConfigMap it loads with envFrom (read by name on that error): writes go to a read-only server, and shipments-mysql-0 is named as pinned', async () => {
      const r = await investigateAt(apiTools(world(`${db}-0.${db}`)), ask, NOW, ns);
      expect(readByName(r.gateway.calls, settings)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain('shipment-writer sends its writes to a MySQL server that runs read-only');
      expect(a).toContain(
        `DB_HOST=${db}-0.${db}, in DB_HOST of ConfigMap ${settings} names one member, ${db}-0, not the primary`,
      );
    });

    it("a DSN in the container's own env (MYSQL_DSN=...@tcp(shipments-mysql-2.shipments-mysql:3306)/...): shipments-mysql-2 named as pinned", async () => {
      const w = world(`${db}.${ns}.svc.cluster.local`);
      w.objects = w.objects.map((o) =>
        (o['metadata'] as Obj)['name'] === pod
          ? withEnv(o, {
              MYSQL_DSN: `shipwriter:$(DB_PASSWORD)@tcp(${db}-2.${db}:3306)/shipments?parseTime=true`,
            })
          : o,
      );
      const r = await investigateAt(apiTools(w), ask, NOW, ns);
      expect(answerOf(r.result)).toContain(`names one member, ${db}-2, not the primary`);
    });

    it('near miss: DB_HOST=shipments-mysql.fulfilment.svc.cluster.local, a Service without a member ordinal: read-only writes, no member named as pinned', async () => {
      const r = await investigateAt(apiTools(world(`${db}.${ns}.svc.cluster.local`)), ask, NOW, ns);
      expect(readByName(r.gateway.calls, settings)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain('sends its writes to a MySQL server that runs read-only');
      expect(a).not.toMatch(/names one member|pins/);
    });
  });

  // ---------------------------------------------------------------- 6. a canary and its stable twin
  describe('6. a crash-looping canary whose stable twin runs the same image', () => {
    const ns = 'pricing';
    const stable = 'quote-engine';
    const canary = 'quote-engine-canary';
    const image = 'registry.example.net/pricing/quote-engine:5.2.0';
    const canaryPod = `${canary}-9d7b5c4f63-k2x8q`;
    const world = (o: { stableImage?: string; stableCrashes?: boolean } = {}): ApiWorld => {
      const stableImage = o.stableImage ?? image;
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj(stable, ns, [stableImage], 2, o.stableCrashes ? 0 : 2),
          deploymentObj(canary, ns, [image], 1, 0),
          ...['r5v2m', 'z8c4n'].map((s) =>
            loading(
              rsPod(
                stable,
                '74f8c6d9b2',
                s,
                ns,
                [
                  o.stableCrashes
                    ? crashing(stable, stableImage, 6)
                    : { name: stable, image: stableImage },
                ],
                { created: 60 * 24 * 6 },
              ),
              `${stable}-config`,
            ),
          ),
          loading(
            rsPod(canary, '9d7b5c4f63', 'k2x8q', ns, [crashing(canary, image)], { created: 40 }),
            `${canary}-config`,
          ),
          configMapObj(`${stable}-config`, ns, {
            PRICING_RULES_URL: 'http://rules-store.pricing.svc.cluster.local/v3/rules',
            FEATURE_TIERED_DISCOUNTS: 'false',
            LOG_LEVEL: 'info',
          }),
          configMapObj(`${canary}-config`, ns, {
            PRICING_RULES_URL: 'http://rules-store.pricing.svc.cluster.local/v3/rules',
            FEATURE_TIERED_DISCOUNTS: 'true',
            LOG_LEVEL: 'info',
          }),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: canaryPod },
            'BackOff',
            `Back-off restarting failed container ${canary} in pod ${canaryPod}_${ns}(2c9e41d7-5b8a-4f63-9e0d-7a1b3c5d8f24)`,
            36,
            1,
            31,
          ),
        ],
        previous: {
          [canaryPod]: [
            `${ago(3)} INFO quote-engine 5.2.0 starting (rules=v3)`,
            `${ago(3)} INFO tiered discounts enabled`,
            'panic: assignment to entry in nil map',
            '',
            'goroutine 1 [running]:',
            'example.net/pricing/quote-engine/internal/discount.(*Tiers).Load(0xc0001a2c00, {0xc00012e0f0, 0x2a})',
            '\t/src/internal/discount/tiers.go:88 +0x1d4',
            'main.main()',
            '\t/src/cmd/quote-engine/main.go:61 +0x3c5',
          ].join('\n'),
        },
      };
    };
    const ask = 'quote-engine-canary in pricing is crash looping';

    const twin = `${canary} crashes while ${stable} runs the same image`;

    it('the canary panics, quote-engine runs the same image and is healthy: the code is the same, and FEATURE_TIERED_DISCOUNTS=true against false from the ConfigMaps each loads (both read by name)', async () => {
      const r = await investigateAt(apiTools(world()), ask, NOW, ns);
      expect(readByName(r.gateway.calls, `${canary}-config`)).toBe(true);
      expect(readByName(r.gateway.calls, `${stable}-config`)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain('panic: assignment to entry in nil map');
      expect(a).toContain(
        `${twin} (${image}) and is healthy, so the code is the same and their configuration is the suspect`,
      );
      expect(a).toContain(
        `they differ in FEATURE_TIERED_DISCOUNTS=true (ConfigMap ${canary}-config) against FEATURE_TIERED_DISCOUNTS=false (ConfigMap ${stable}-config)`,
      );
      // the settings both share are not differences
      expect(a).not.toMatch(/PRICING_RULES_URL=|LOG_LEVEL=/);
    });

    it('the settings in variables of the pod spec instead (QUOTE_ROUNDING=bankers against half-up): the variable that differs is named', async () => {
      const w = world();
      w.objects = w.objects
        .filter((o) => o['kind'] !== 'ConfigMap')
        .map((o) => {
          if (o['kind'] !== 'Pod') return o;
          const name = String((o['metadata'] as Obj)['name']);
          const c = (o['spec'] as { containers: Obj[] }).containers[0]!;
          delete c['envFrom'];
          return withEnv(o, {
            PRICING_RULES_URL: 'http://rules-store.pricing.svc.cluster.local/v3/rules',
            QUOTE_ROUNDING: name.startsWith(canary) ? 'bankers' : 'half-up',
          });
        });
      const r = await investigateAt(apiTools(w), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`${twin} (${image}) and is healthy`);
      expect(a).toContain('they differ in QUOTE_ROUNDING=bankers against QUOTE_ROUNDING=half-up');
    });

    it('near miss: quote-engine runs another image (5.1.4): other code, no twin claim', async () => {
      const r = await investigateAt(
        apiTools(world({ stableImage: 'registry.example.net/pricing/quote-engine:5.1.4' })),
        ask,
        NOW,
        ns,
      );
      expect(answerOf(r.result)).toContain('panic: assignment to entry in nil map');
      expect(r.text).not.toMatch(/runs the same image|they differ in|FEATURE_TIERED_DISCOUNTS/);
    });

    it('near miss: quote-engine, on the same image, crash-loops too (no healthy twin): no twin claim', async () => {
      const r = await investigateAt(apiTools(world({ stableCrashes: true })), ask, NOW, ns);
      expect(r.text).not.toMatch(/runs the same image|they differ in|FEATURE_TIERED_DISCOUNTS/);
    });
  });
});
